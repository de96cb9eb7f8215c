/**
 * Rules of the bodies of the post-import endpoints (src/post-import/) across their fields:
 *
 * - A note request names its account by `external_account_number` or, in its deprecated
 *   form, `account_number`; one of them is required (`required`, at external_account_number).
 *   When both are given, external_account_number is the one used.
 * - A payment instruction gives exactly one of `reference` and its deprecated form
 *   `instruction_reference` (`mutually_exclusive_field_required`, at the one that is in excess
 *   or, when neither is given, at `reference`). A blank one counts as not given.
 */
import { fail } from '../../payload/validators.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { holdsData } from './shared.js';

const accountNamed: ObjectRule = {
  codes: ['required'],
  check: (_out, prefix, run, input) => {
    if (input.external_account_number === undefined && input.account_number === undefined) {
      fail(
        run,
        `${prefix}external_account_number`,
        'required',
        'Name the account with external_account_number.',
      );
    }
  },
};

const oneReference: ObjectRule = {
  codes: ['mutually_exclusive_field_required'],
  check: (_out, prefix, run, input) => {
    const reference = holdsData(input.reference);
    const legacy = holdsData(input.instruction_reference);
    if (reference === legacy) {
      fail(
        run,
        `${prefix}${reference ? 'instruction_reference' : 'reference'}`,
        'mutually_exclusive_field_required',
        reference
          ? 'Send reference or instruction_reference, not both.'
          : 'Send reference (or, deprecated, instruction_reference).',
      );
    }
  },
};

export const POST_IMPORT_RULES: ObjectRules = {
  AccountNote: accountNamed,
  LegacyPaymentInstruction: oneReference,
};
