/** Account payload v1 (declared in parts/, described in README.md): validation, normalisation and its JSON Schema. */
import { billingAddressSchema, checkAccount } from './account-rules.js';
import { object } from './object.js';
import { accountShape, type AccountPayload } from './parts/account-shape.js';
import { runType, startRun, type PayloadContext, type ValidationResult } from './run.js';
import type { Type } from './validators.js';

export type { AccountPayload } from './parts/account-shape.js';
export type { Address } from './parts/address.js';
export type { Consent, Customer, PsrRecord } from './parts/customer.js';
export type {
  MetadataEntry,
  Note,
  PaymentInstruction,
  Reference,
  Statement,
} from './parts/records.js';
export type { Agreement, Meter, MeterPoint, SupplyAddress } from './parts/supply-address.js';

export type { PayloadContext, ValidationResult } from './run.js';

const accountPayload: Type<AccountPayload> = object(accountShape, {
  description:
    'Account payload v1. Strings are trimmed before every check; lengths count Unicode code points; ' +
    'an optional field with no data is omitted. The service validator is authoritative: it also ' +
    'checks MPAN check digits, phone numbers, dates against today and uniqueness rules.',
  refine: checkAccount,
  schema: billingAddressSchema,
});

/** Validates and normalises an account payload v1; every problem is reported at once. */
export function validateAccountPayload(
  input: unknown,
  context: PayloadContext,
): ValidationResult<AccountPayload> {
  return runType(accountPayload, input, startRun(context));
}

/** JSON Schema (draft 2020-12, OpenAPI 3.1) of the payload, generated from the same definitions. */
export const accountPayloadJsonSchema: object = {
  title: 'AccountPayloadV1',
  ...accountPayload.schema,
};
