/**
 * Document paths (docs/interface.md, Document paths): relative to the supplier's document root, so they must not
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

/** Whether `path` has the shape of a document path (see above). */
const wellShaped = (path: string): boolean =>
  SEGMENTS.test(path) && !SCHEME.test(path) && !ENCODED.test(path) && !LOOKALIKES.test(path);

const separators = (path: string): number => path.split('/').length;

/**
 * True when `path` is a valid document path. Its NFKC normalisation must be one too, with the
 * same separators, so that no reader that normalises finds a dot segment, a separator, a `%`
 * or a scheme in it. Other differences are fine: `é` written as `e` and a combining accent (as
 * macOS writes file names), `²`, a no-break space.
 */
export function isDocumentPath(path: string): boolean {
  if (path.length < MIN || path.charCodeAt(0) !== 47) return false;
  if (path.length > MAX && codePointLength(path) > MAX) return false;
  if (!wellShaped(path)) return false;
  const normalised = path.normalize('NFKC');
  return (
    normalised === path || (wellShaped(normalised) && separators(normalised) === separators(path))
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
          'Expected a path such as "/statements/2024/S-1.pdf": leading "/", no empty, "." or ".." segment, no "\\", "?", "#", "%", control character, look-alike slash or dot, or URL scheme, even once Unicode-normalised (NFKC).',
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
