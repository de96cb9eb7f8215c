/** The operator services' error, from its home below every feature that refuses operator input. */
export { OperatorError } from '../operator-error.js';
