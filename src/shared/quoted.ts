/**
 * Characters a terminal could act on that JSON.stringify writes as they are (it escapes C0
 * controls itself): DEL, C1 controls such as U+009B (a one-character escape sequence), line and
 * paragraph separators, and bidirectional formatting characters (an override, U+202E, would
 * display the rest of the line reversed).
 */
const LEFT_BY_JSON = /[\u007F-\u009F\p{Bidi_Control}\u2028\u2029]/gu;

/**
 * `value` as JSON text (`indent` spaces deep, or on one line) with every character a terminal
 * could act on escaped as `\uXXXX`: safe to print, and it parses back to the same value.
 */
export function showableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    LEFT_BY_JSON,
    (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/** `value` quoted for a message, every character a terminal could act on escaped. */
export function quoted(value: string): string {
  return showableJson(value);
}
