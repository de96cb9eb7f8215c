/** The message of the OperatorError `promise` rejects with; the test fails if it does not. */
import { expect } from 'vitest';
import { OperatorError } from '../../src/shared/operator-error.js';

export async function operatorRefusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OperatorError);
  return (error as OperatorError).message;
}
