/**
 * The work a large account body costs, in a form a validation thread can run
 * (validation-threads.ts) and the event loop can redo should a thread fail: reading the body
 * (JSON.parse, the repeated-key check, U+0000), then validating it against a supplier. An
 * account is a few kB; a body many times that is most often one built to cost the service time
 * (90,000 unknown keys parse, scan and validate for hundreds of milliseconds), so it is read and
 * validated beside the event loop, which only handles the small answers.
 */
import { ServiceError, type FieldError } from '../../errors.js';
import {
  notAnObject,
  nulCharacterPaths,
  parseJsonText,
  type NulPath,
} from '../../payload/json-text.js';
import { validateEnergyAccount } from '../account.js';
import { accountClaims, type AccountClaim } from '../claims.js';
import type { ValidationResult } from '../../payload/run.js';
import { isObject } from '../../payload/validators.js';
import {
  platformView,
  type PlatformData,
  type SupplierRule,
} from '../../platform/platform-data.js';

/** What a thread is asked to do with a large body's text. */
export type LargeBodyJob =
  | { kind: 'read'; text: string }
  | { kind: 'validate'; text: string; rule: SupplierRule; supplierFound: boolean };

/**
 * A body's refusal (400 malformed_request, as every refusal of the body parser) as it crosses
 * from a thread: its parts, made whole again by refusalOf.
 */
interface Refusal {
  detail: string;
  errors: FieldError[];
}

/**
 * A large body read: refused (broken JSON, a repeated key, not an object), or an object with the
 * `import_supplier` it gives (when a string) and where it holds U+0000.
 */
export type LargeBodyReading = { refusal: Refusal } | LargeObjectBody;

export interface LargeObjectBody {
  importSupplier: string | undefined;
  nulPaths: NulPath[] | undefined;
}

/**
 * A large body validated: the normalised payload as JSON, its external account number and the
 * values it claims, or its field errors (capped).
 */
export type LargeBodyValidation =
  | { ok: true; value: string; externalAccountNumber: string; claims: AccountClaim[] }
  | Extract<ValidationResult<string>, { ok: false }>;

export type LargeBodyAnswer<J extends LargeBodyJob> = J extends { kind: 'read' }
  ? LargeBodyReading
  : LargeBodyValidation;

/** The job's answer; a validation is against `platform`. */
export function runLargeBodyJob<J extends LargeBodyJob>(
  job: J,
  platform: PlatformData,
): LargeBodyAnswer<J>;
export function runLargeBodyJob(
  job: LargeBodyJob,
  platform: PlatformData,
): LargeBodyReading | LargeBodyValidation {
  return job.kind === 'read' ? readLargeBody(job.text) : validateLargeBody(job, platform);
}

/** The same checks, in the same order, as the body parser makes for a body of any size. */
function readLargeBody(text: string): LargeBodyReading {
  let body: unknown;
  try {
    body = parseJsonText(text);
  } catch (error) {
    if (error instanceof ServiceError) return { refusal: partsOf(error) };
    throw error;
  }
  if (!isObject(body)) return { refusal: partsOf(notAnObject()) };
  const paths = text.includes('\\u0000') ? nulCharacterPaths(body) : [];
  const supplier = body.import_supplier;
  return {
    importSupplier: typeof supplier === 'string' ? supplier : undefined,
    nulPaths: paths.length > 0 ? paths : undefined,
  };
}

/** Validation of a body readLargeBody found to be a JSON object. */
function validateLargeBody(
  job: LargeBodyJob & { kind: 'validate' },
  platform: PlatformData,
): LargeBodyValidation {
  const body = JSON.parse(job.text) as Record<string, unknown>;
  const { rule, supplierFound } = job;
  const result = validateEnergyAccount(body, {
    phoneRegion: rule.phoneRegion,
    supplierFound,
    platform: platformView(platform, rule.settings),
  });
  if (!result.ok) return result;
  const { value } = result;
  return {
    ok: true,
    value: JSON.stringify(value),
    externalAccountNumber: value.external_account_number,
    claims: accountClaims(value),
  };
}

const partsOf = (error: ServiceError): Refusal => ({
  detail: error.message,
  errors: error.errors,
});

/** The refusal a thread reported, as the ServiceError the event loop would have thrown. */
export const refusalOf = (refusal: Refusal): ServiceError =>
  new ServiceError({ code: 'malformed_request', ...refusal });
