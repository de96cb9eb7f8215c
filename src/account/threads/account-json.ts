/**
 * An account payload sent as JSON text, parsed, validated and serialised again in one step:
 * the whole CPU cost of a payload, in a form a validation thread can run (validation-threads.ts).
 */
import { repeatedKey } from '../../shared/json-keys.js';
import { validateEnergyAccount } from '../account.js';
import { accountClaims, type AccountClaim } from '../claims.js';
import { isObject } from '../../payload/validators.js';
import {
  platformView,
  type PlatformData,
  type SupplierRule,
} from '../../platform/platform-data.js';

/** A valid payload, normalised and serialised, and what it was validated with. */
export interface CheckedAccount {
  /** `import_supplier`, trimmed. */
  supplierCode: string;
  /** The supplier's phone region and settings the payload was validated with. */
  rule: SupplierRule;
  /** The version of the platform data it was validated against (PlatformData). */
  platformVersion: string;
  externalAccountNumber: string;
  /** The normalised payload as JSON, as a stage stores it and validate returns it. */
  data: string;
  /** The values it claims within its import supplier (src/account/claims.ts). */
  claims: AccountClaim[];
  /** For an account checked inside a v2 body (checkWrappedAccountJson): the rest of it. */
  wrapper?: V2Wrapper;
}

/** What a v2 scheduling body holds beside its valid account, for the event loop to check. */
export interface V2Wrapper {
  /** `task_params` as sent. */
  taskParams: unknown;
  /** The account's `operations_team_name` as sent. */
  teamName: unknown;
}

/** A supplier validated against before it was found (see checkAccountJson). */
const UNKNOWN_SUPPLIER: SupplierRule = { phoneRegion: 'GB', settings: '{}' };

/** The JSON object in `text`, or undefined when it is none or repeats a key. */
function objectIn(text: string): Record<string, unknown> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(body) && repeatedKey(text, body) === undefined ? body : undefined;
}

/**
 * Checks the payload in `text` against `platform` and the rule `ruleOf` gives its supplier
 * code. Undefined when the text is not a JSON object (or repeats a key), the code has no known
 * rule, or the payload is invalid: the caller then takes its authoritative path, which reports
 * why.
 */
export function checkAccountJson(
  text: string,
  ruleOf: (supplierCode: string) => SupplierRule | undefined,
  platform: PlatformData,
): CheckedAccount | undefined {
  const body = objectIn(text);
  return body && checkAccountObject(body, ruleOf, platform);
}

/**
 * checkAccountJson for a v2 scheduling body (`{payload, task_params}`, nothing else): its
 * account checked, and its task parameters and team name handed on as sent. Undefined for any
 * other body, or an account not valid as it stands.
 */
export function checkWrappedAccountJson(
  text: string,
  ruleOf: (supplierCode: string) => SupplierRule | undefined,
  platform: PlatformData,
): CheckedAccount | undefined {
  const body = objectIn(text);
  if (body === undefined || !isObject(body.payload) || body.task_params === undefined) {
    return undefined;
  }
  if (Object.keys(body).some((key) => key !== 'payload' && key !== 'task_params')) {
    return undefined;
  }
  const account = checkAccountObject(body.payload, ruleOf, platform);
  if (account === undefined) return undefined;
  const wrapper = { taskParams: body.task_params, teamName: body.payload.operations_team_name };
  return { ...account, wrapper };
}

/** The check of a text: checkWrappedAccountJson for a v2 body (`wrapped`), else checkAccountJson. */
export const accountCheckOf = (wrapped: boolean) =>
  wrapped ? checkWrappedAccountJson : checkAccountJson;

function checkAccountObject(
  body: Record<string, unknown>,
  ruleOf: (supplierCode: string) => SupplierRule | undefined,
  platform: PlatformData,
): CheckedAccount | undefined {
  const code = body.import_supplier;
  if (typeof code !== 'string') return undefined;
  const supplierCode = code.trim();
  const knownRule = ruleOf(supplierCode);
  // A code the instance does not know is checked all the same, and the answer dropped: it then
  // takes as long to refuse as one it knows but the caller may not use (KnownSuppliers).
  const rule = knownRule ?? UNKNOWN_SUPPLIER;
  const result = validateEnergyAccount(body, {
    phoneRegion: rule.phoneRegion,
    supplierFound: true,
    platform: platformView(platform, rule.settings),
  });
  if (!result.ok) return undefined;
  const data = JSON.stringify(result.value);
  if (knownRule === undefined) return undefined;
  return {
    supplierCode,
    rule,
    platformVersion: platform.version,
    externalAccountNumber: result.value.external_account_number,
    data,
    claims: accountClaims(result.value),
  };
}
