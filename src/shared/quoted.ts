/**
 * `value` quoted for a message, every character a terminal could act on escaped: JSON's escapes
 * for C0 controls, and `\uXXXX` for what JSON leaves as it is (DEL, C1 controls such as U+009B,
 * a one-character escape sequence, line and paragraph separators, and bidirectional formatting
 * characters: an override, U+202E, would display the rest of the line reversed).
 */
export function quoted(value: string): string {
  return JSON.stringify(value).replace(
    /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/gu,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
