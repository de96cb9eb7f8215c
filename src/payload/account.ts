/** Account payload v1 (ACCOUNT_PAYLOAD.md): validation, normalisation and its JSON Schema. */
import type { FieldError } from '../errors.js';
import { billingAddressSchema, checkAccount } from './account-rules.js';
import { object } from './object.js';
import { accountShape, type AccountPayload } from './parts/account-shape.js';
import { INVALID, EMPTY, type Run, type Type } from './validators.js';

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

export interface PayloadContext {
  /** ISO 3166-1 alpha-2 region for nationally written phone numbers, e.g. 'GB'. */
  phoneRegion: string;
  /** Whether `import_supplier` names a supplier the caller may use (looked up beforehand). */
  supplierFound: boolean;
  /** 'YYYY-MM-DD' (UTC) to judge future dates against; defaults to the current date. */
  today?: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const accountPayload: Type<AccountPayload> = object(accountShape, {
  description:
    'Account payload v1. Strings are trimmed before every check; lengths count Unicode code points; ' +
    'an optional field with no data is omitted. The service validator is authoritative: it also ' +
    'checks MPAN check digits, phone numbers, dates against today and uniqueness rules.',
  refine: checkAccount,
  schema: billingAddressSchema,
});

let clockSecond = -1;
let clockIso = '';

// Formatting the clock costs about a microsecond; once a second is enough for day granularity.
function isoNow(): string {
  const ms = Date.now();
  const second = Math.floor(ms / 1000);
  if (second !== clockSecond) {
    clockSecond = second;
    clockIso = new Date(ms).toISOString();
  }
  return clockIso;
}

/** Starts a validation run; shared with the process request validator. */
export function startRun(context: Partial<PayloadContext> = {}): Run {
  const now = isoNow();
  const today = context.today ?? now.slice(0, 10);
  return {
    errors: [],
    today,
    // With a fixed `today` (tests, replays) a datetime counts as future only after that day.
    now: context.today === undefined ? `${now.slice(0, 19)}Z` : `${context.today}T23:59:59Z`,
    phoneRegion: (context.phoneRegion ?? 'GB').toUpperCase(),
    supplierFound: context.supplierFound ?? false,
  };
}

/** Runs a Type over a whole input and wraps the outcome as a ValidationResult. */
export function runType<T>(t: Type<T>, input: unknown, run: Run): ValidationResult<T> {
  const value = t.check(input, '', run, {});
  if (run.errors.length > 0 || value === INVALID || value === EMPTY) {
    return { ok: false, errors: run.errors };
  }
  return { ok: true, value };
}

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
