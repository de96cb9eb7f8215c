/**
 * The published account (`EnergyAccount` and the schemas it nests): validation, normalisation,
 * its OpenAPI components and its types. Not yet wired into the HTTP endpoints.
 */
import { componentsOf } from '../payload/named.js';
import { runType, startRun, type PayloadContext, type ValidationResult } from '../payload/run.js';
import type { JsonSchema } from '../payload/validators.js';
import { ALL_SCHEMAS, EnergyAccount } from './schema/generated.js';

export type * from './schema/generated.js';

/** Validates and normalises a published account; every problem is reported at once. */
export function validateEnergyAccount(
  input: unknown,
  context: PayloadContext,
): ValidationResult<EnergyAccount> {
  return runType(EnergyAccount, input, startRun(context));
}

/** Every declared schema as an OpenAPI component (`#/components/schemas/<name>`). */
export const accountComponents: Record<string, JsonSchema> = componentsOf(ALL_SCHEMAS);
