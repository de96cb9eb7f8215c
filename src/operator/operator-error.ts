/**
 * Bad operator input: an unknown supplier, a duplicate code, an invalid option value. The
 * message is written for the operator and printed as is, so it never carries internals.
 */
export class OperatorError extends Error {
  override readonly name = 'OperatorError';
}

/**
 * `value` quoted for a message, with JSON's escapes for control characters and `\uXXXX` for
 * bidirectional formatting characters too: echoed raw, an override (U+202E) would display the
 * rest of the operator's line reversed.
 */
export function quoted(value: string): string {
  return JSON.stringify(value).replace(
    /\p{Bidi_Control}/gu,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
