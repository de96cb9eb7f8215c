/**
 * An account payload sent as JSON text, parsed, validated and serialised again in one step:
 * the whole CPU cost of a payload, in a form a validation thread can run (validation-threads.ts).
 */
import { repeatedKey } from '../../shared/json-keys.js';
import { validateEnergyAccount } from '../account.js';
import { isObject } from '../../payload/validators.js';

/** A valid payload, normalised and serialised, and the supplier region it was validated for. */
export interface CheckedAccount {
  /** `import_supplier`, trimmed. */
  supplierCode: string;
  phoneRegion: string;
  externalAccountNumber: string;
  /** The normalised payload as JSON, as a stage stores it and validate returns it. */
  data: string;
}

/**
 * Checks the payload in `text` against the phone region `regionOf` gives its supplier code.
 * Undefined when the text is not a JSON object (or repeats a key), the code has no known
 * region, or the payload is invalid: the caller then takes its authoritative path, which
 * reports why.
 */
export function checkAccountJson(
  text: string,
  regionOf: (supplierCode: string) => string | undefined,
): CheckedAccount | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || repeatedKey(text, body) !== undefined) return undefined;
  const code = body.import_supplier;
  if (typeof code !== 'string') return undefined;
  const supplierCode = code.trim();
  const knownRegion = regionOf(supplierCode);
  // A code the instance does not know is checked all the same, and the answer dropped: it then
  // takes as long to refuse as one it knows but the caller may not use (KnownSuppliers).
  const phoneRegion = knownRegion ?? 'GB';
  const result = validateEnergyAccount(body, { phoneRegion, supplierFound: true });
  if (!result.ok) return undefined;
  const data = JSON.stringify(result.value);
  if (knownRegion === undefined) return undefined;
  return {
    supplierCode,
    phoneRegion,
    externalAccountNumber: result.value.external_account_number,
    data,
  };
}
