/**
 * Bad operator input: an unknown supplier, a duplicate code, an invalid option value. The
 * message is written for the operator and printed as is, so it never carries internals.
 */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';
}
