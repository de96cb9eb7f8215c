/**
 * The published account (`EnergyAccount` and the schemas it nests): validation, normalisation,
 * its OpenAPI components and its types.
 */
import { componentsOf } from '../payload/named.js';
import { runType, startRun, type PayloadContext, type ValidationResult } from '../payload/run.js';
import type { JsonSchema, PlatformView } from '../payload/validators.js';
import { ALL_SCHEMAS, EnergyAccount } from './schema/generated.js';

export type * from './schema/generated.js';

/** The context of an account's validation: it always names the platform the rules look up. */
export type AccountContext = PayloadContext & { platform: PlatformView };

/** Validates and normalises a published account; every problem is reported at once. */
export function validateEnergyAccount(
  input: unknown,
  context: AccountContext,
): ValidationResult<EnergyAccount> {
  return runType(EnergyAccount, input, startRun(context));
}

/** Every declared schema as an OpenAPI component (`#/components/schemas/<name>`). */
export const accountComponents: Record<string, JsonSchema> = componentsOf(ALL_SCHEMAS);
