/** The two fields that name a staged account: its supplier's code and its external number. */
import { externalAccountNumberProblem } from './codes.js';
import { text } from './scalars.js';
import { fail, type, type Type } from './validators.js';

/** A supplier code; whether the caller may use it was looked up before validation. */
export const importSupplier: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string' || run.supplierFound) return s;
    return fail(
      run,
      path,
      'import_supplier_not_found',
      'No import supplier with this code is available to you.',
    );
  },
  { type: 'string', description: 'Code of an import supplier the caller may use.' },
);

/** The account's identifier in the external system; it travels in URL path segments. */
export const externalAccountNumber: Type<string> = type(
  (value, path, run) => {
    // An unpaired surrogate breaks the number's own rule first: no URL can carry it.
    const s = typeof value === 'string' && !value.isWellFormed() ? value : text(value, path, run);
    if (typeof s !== 'string' || !externalAccountNumberProblem(s)) return s;
    return fail(
      run,
      path,
      'invalid_external_account_number',
      'Expected 1-128 characters, not "." or "..", without white space, "/", "?", "#", "%" or control characters.',
    );
  },
  {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    pattern: '^(?!\\.\\.?$)[^\\s/?#%\\u0000-\\u001f\\u007f-\\u009f]+$',
  },
);
