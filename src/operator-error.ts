/**
 * Bad operator input: an unknown supplier, a duplicate code, an invalid option value. The
 * message is written for the operator and printed as is, so it never carries internals.
 *
 * It sits below every feature that refuses operator input (operator/, reference/, settings/),
 * so that one of them can refuse input without importing another: settings/ is read by the
 * account rules, and importing operator/ from it would tie the two folders in a circle.
 */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';
}
