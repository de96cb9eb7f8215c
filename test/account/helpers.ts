/** Shared helpers of the account tests: a fixed context and compact error assertions. */
import { expect } from 'vitest';
import { FIELD_ERROR_CODES } from '../../src/payload/codes.js';
import { validateEnergyAccount, type EnergyAccount } from '../../src/account/account.js';
import type { AccountContext } from '../../src/account/account.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

/** A fixed "today" keeps date rules deterministic. */
export const TODAY = '2025-06-15';
export const CONTEXT: AccountContext = { ...TEST_ACCOUNT_CONTEXT, today: TODAY };

export interface Problem {
  code: string;
  attr: string | null;
}

/** The (code, attr) pairs of a payload that must fail. */
export function problemsOf(input: unknown, context: Partial<AccountContext> = {}): Problem[] {
  const result = validateEnergyAccount(input, { ...CONTEXT, ...context });
  if (result.ok) throw new Error('expected validation errors, got a valid payload');
  for (const { code } of result.errors) expect(FIELD_ERROR_CODES).toHaveProperty(code);
  return result.errors.map(({ code, attr }) => ({ code, attr }));
}

/** Asserts the payload fails with exactly these problems (in any order). */
export function expectProblems(input: unknown, expected: Problem[], context = {}): void {
  const sort = (list: Problem[]) =>
    [...list].sort((a, b) => `${a.attr}|${a.code}`.localeCompare(`${b.attr}|${b.code}`));
  expect(sort(problemsOf(input, context))).toEqual(sort(expected));
}

/** Asserts the payload fails with exactly one problem. */
export function expectProblem(
  input: unknown,
  code: string,
  attr: string | null,
  context = {},
): void {
  expectProblems(input, [{ code, attr }], context);
}

/** The normalised value of a payload that must pass. */
export function valueOf(input: unknown, context: Partial<AccountContext> = {}): EnergyAccount {
  const result = validateEnergyAccount(input, { ...CONTEXT, ...context });
  if (!result.ok) throw new Error(`expected a valid payload, got ${JSON.stringify(result.errors)}`);
  return result.value;
}
