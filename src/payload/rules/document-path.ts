/**
 * Document paths (SPEC.md 2.5): relative to the supplier's document root, so they must not
 * be able to climb out of it, smuggle a query or point somewhere else with a URL scheme.
 */
import { codePointLength, text } from '../scalars.js';
import { fail, type, type Type } from '../validators.js';

// Non-empty segments, none of them `.` or `..`, no backslash, `?`, `#` or control character.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const SEGMENTS = /^(?:\/(?!\.\.?(?:\/|$))[^/\\?#\u0000-\u001f\u007f-\u009f]+)+$/;
// `/s3:bucket/x.pdf` or `/https:/host/x.pdf` would read as a URL, not as a path under the root.
const SCHEME = /^\/[A-Za-z][A-Za-z0-9+.-]*:/;
// Anything that a later percent-decoding or Unicode normalisation could turn into a dot
// segment or a separator: `%2e%2e`, `%2f`, `%00`, fullwidth `．．` or `∕`. A stored location
// must mean the same thing to every reader.
const ENCODED = /%/;
// Slashes and dots that Unicode normalisation (NFKC) leaves alone but a reader may not.
const LOOKALIKES = /[\u2215\u2044\u29f8\u2024]/;
const MIN = 2;
const MAX = 1024;

/** True when `path` is a valid document path. */
export function isDocumentPath(path: string): boolean {
  if (path.length < MIN || path.charCodeAt(0) !== 47) return false;
  if (path.length > MAX && codePointLength(path) > MAX) return false;
  return (
    SEGMENTS.test(path) &&
    !SCHEME.test(path) &&
    !ENCODED.test(path) &&
    path.normalize('NFKC') === path &&
    !LOOKALIKES.test(path)
  );
}

/** A document path (`invalid_document_path`). */
export const documentPath: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    return isDocumentPath(s)
      ? s
      : fail(
          run,
          path,
          'invalid_document_path',
          'Expected a path such as "/statements/2024/S-1.pdf": leading "/", no empty, "." or ".." segment, no "\\", "?", "#", "%", control character, look-alike slash or dot, or URL scheme.',
        );
  },
  {
    type: 'string',
    minLength: MIN,
    maxLength: MAX,
    pattern: SEGMENTS.source,
    description:
      'Path under the supplier document root, e.g. "/statements/2024/S-1.pdf"; resolved to <bucket>/<root><path> on creation.',
  },
);
