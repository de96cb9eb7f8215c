/** JSON request bodies: one strict parser, and the object check every POST route needs. */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, validationFailed } from '../errors.js';
import type { ValidationResult } from '../payload/run.js';
import { addFieldError, isObject } from '../payload/validators.js';
import { repeatedKey } from '../shared/json-keys.js';

// Fastify tests this against the media type followed by its parameters, if any.
const JSON_TYPE = /^application\/([\w.-]+\+)?json(;|$)/;
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * JSON travels as UTF-8 (RFC 8259), and bodies are read as UTF-8; a body declared in another
 * charset is refused rather than misread. `charset=utf-8` (any case, quoted or not) is fine.
 */
function unreadableCharset(contentType: string | undefined): ServiceError | undefined {
  const charset = contentType?.match(CHARSET_PARAMETER)?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return undefined;
  return new ServiceError({
    code: 'unsupported_media_type',
    detail: 'Send the body as JSON in UTF-8.',
  });
}

/** How much of an unsupported content coding an error's detail shows. */
const MAX_CODING_SHOWN = 50;

/**
 * A body in a content coding (gzip, br…) is not read: its compressed bytes would otherwise be
 * refused as broken JSON, which hides the cause. RFC 9110 (15.5.16) answers it 415 with
 * `Accept-Encoding` naming what is accepted: the body as it is (`identity`).
 */
function unreadableEncoding(header: string | string[] | undefined): ServiceError | undefined {
  if (header === undefined) return undefined;
  const coding = String(header)
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .find((part) => part !== '' && part !== 'identity');
  if (coding === undefined) return undefined;
  const shown = JSON.stringify(coding.slice(0, MAX_CODING_SHOWN));
  return new ServiceError({
    code: 'unsupported_media_type',
    detail: `The body's Content-Encoding ${shown} is not supported; send the JSON uncompressed.`,
    headers: { 'accept-encoding': 'identity' },
  });
}

/**
 * A JSON body left unparsed, for a route whose config sets `jsonText`: the route parses it
 * where it pleases, with parseJsonText so that a broken body is refused as on any other route.
 * The U+0000 check has been made (nulCharacterRefused, or `request.nulPaths`).
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A body the parser refused, handed to a `callerCheckedFirst` route to refuse in its turn. */
export class RefusedBody {
  constructor(readonly refusal: ServiceError) {}
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes its JSON body as a JsonText. */
    jsonText?: boolean;
    /**
     * The route reports U+0000 in its body's strings itself, among its field errors
     * (`request.nulPaths`); elsewhere such a body is refused here (nulCharacterRefused).
     */
    nulAsFieldErrors?: boolean;
    /**
     * The route checks its caller before it answers anything: a body the parser refuses reaches
     * it as a RefusedBody, which requireObjectBody or requireJsonText throw after that check.
     */
    callerCheckedFirst?: boolean;
  }
  interface FastifyRequest {
    /** Where the body holds U+0000, on a `nulAsFieldErrors` route; undefined when nowhere. */
    nulPaths: NulPath[] | undefined;
  }
}

/** Where a body holds U+0000: the dot path of a string or key holding it (null: the body). */
export type NulPath = string | null;

/** At most this many places are reported. */
const MAX_NUL_PATHS = 100;

export function registerJsonBodies(app: FastifyInstance): void {
  app.decorateRequest('nulPaths', undefined);
  app.removeAllContentTypeParsers();
  // JSON.parse yields `__proto__` as a plain own key and never touches prototypes; the payload
  // validators then report such keys as unknown fields, so nothing needs stripping here.
  // Read as bytes: decoding as a string would turn bytes that are not UTF-8 (a Latin-1 extract,
  // say) into U+FFFD without a word, and two different account numbers into one.
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, readJsonBody(request, body as Buffer));
    } catch (error) {
      if (error instanceof ServiceError && request.routeOptions.config.callerCheckedFirst) {
        done(null, new RefusedBody(error));
      } else {
        done(error as Error, undefined);
      }
    }
  });
}

/** The body's text; bytes that are not UTF-8 are refused rather than replaced. */
function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) {
    throw new ServiceError({
      code: 'malformed_request',
      detail: 'The body is not valid UTF-8; send JSON encoded as UTF-8.',
    });
  }
  return body.toString('utf8');
}

/** The body checked and parsed; left as a JsonText for a `jsonText` route (see JsonText). */
function readJsonBody(request: FastifyRequest, body: Buffer): unknown {
  const contentProblem =
    unreadableEncoding(request.headers['content-encoding']) ??
    unreadableCharset(request.headers['content-type']);
  if (contentProblem) throw contentProblem;
  const text = utf8Text(body);
  if (text.trim() === '') {
    throw new ServiceError({
      code: 'malformed_request',
      detail: 'The body is empty; send a JSON object.',
    });
  }
  const asText = request.routeOptions.config.jsonText === true;
  // Only the escape \u0000 can put U+0000 in a parsed body; most bodies skip the walk.
  const escapesNul = text.includes('\\u0000');
  if (!escapesNul) return asText ? new JsonText(text) : parseJsonText(text);
  const parsed = parseJsonText(text);
  const paths = nulCharacterPaths(parsed);
  if (paths.length > 0) {
    if (!request.routeOptions.config.nulAsFieldErrors) throw nulCharacterRefused(paths[0] ?? null);
    request.nulPaths = paths;
  }
  return asText ? new JsonText(text) : parsed;
}

/** How much of a repeated key an error's detail shows. */
const MAX_KEY_SHOWN = 100;

/** JSON.parse, refusing broken JSON, and keys repeated in an object, with 400 malformed_request. */
export function parseJsonText(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    throw new ServiceError({
      code: 'malformed_request',
      detail: `The body is not valid JSON${reason}.`,
    });
  }
  const repeated = repeatedKey(text, parsed);
  if (repeated !== undefined) {
    // The path is in `attr` only: a body nested a million deep has a path as long as itself.
    const key = JSON.stringify(repeated.key.slice(0, MAX_KEY_SHOWN));
    const detail = `The body gives the key ${key} more than once in one object (at attr); a key may appear only once.`;
    throw new ServiceError({
      code: 'malformed_request',
      detail,
      errors: [{ detail, code: 'malformed_request', attr: repeated.path }],
    });
  }
  return parsed;
}

/**
 * U+0000 cannot be stored in a PostgreSQL text column: a string holding it would pass
 * validation and staging, then fail every lookup or account creation with a 500. It is
 * refused up front, on both dialects alike.
 */
export function nulCharacterRefused(attr: string | null): ServiceError {
  const detail = 'The request contains the character U+0000, which cannot be stored.';
  return new ServiceError({
    code: 'malformed_request',
    detail,
    errors: [{ detail, code: 'malformed_request', attr }],
  });
}

/**
 * The validated value, or a 400 account_failed_validation with the validation's errors and
 * those of U+0000 at `nulPaths` (on a `nulAsFieldErrors` route), one per place no other error
 * already names. `subject` is what the detail says failed: the account, or the request.
 */
export function validOrRefused<T>(
  result: ValidationResult<T>,
  nulPaths: readonly NulPath[] | undefined,
  subject: 'account' | 'request' = 'account',
): T {
  if (result.ok && nulPaths === undefined) return result.value;
  const errors = result.ok ? [] : [...result.errors];
  const named = new Set(errors.map((error) => error.attr));
  for (const attr of nulPaths ?? []) {
    if (named.has(attr)) continue;
    const detail = 'Contains the character U+0000, which cannot be stored.';
    if (!addFieldError(errors, { detail, code: 'invalid_character', attr })) break;
  }
  throw validationFailed(errors, subject);
}

/**
 * The dot paths of the strings and keys containing U+0000 (a key's path is that of its value,
 * where an unknown field is reported too), in document order, at most MAX_NUL_PATHS of them.
 * Iterative: a body may nest hundreds of thousands of levels.
 */
function nulCharacterPaths(value: unknown): NulPath[] {
  const found: NulPath[] = [];
  const stack: [unknown, NulPath, boolean][] = [[value, null, false]];
  while (stack.length > 0 && found.length < MAX_NUL_PATHS) {
    const [current, path, badKey] = stack.pop() as [unknown, NulPath, boolean];
    if (badKey || (typeof current === 'string' && current.includes('\u0000'))) {
      found.push(path);
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        stack.push([child, path === null ? key : `${path}.${key}`, key.includes('\u0000')]);
      }
    }
  }
  return found;
}

/** Returns the body when it is a JSON object; otherwise a 400 malformed_request. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body instanceof RefusedBody) throw body.refusal;
  if (!isObject(body)) throw notAnObject();
  return body;
}

/**
 * The body of a `jsonText` route. A request without one (no body, or no content type) never
 * reached the parser, and gets requireObjectBody's 400.
 */
export function requireJsonText(body: unknown): JsonText {
  if (body instanceof JsonText) return body;
  if (body instanceof RefusedBody) throw body.refusal;
  throw notAnObject();
}

const notAnObject = () =>
  new ServiceError({ code: 'malformed_request', detail: 'The body must be a JSON object.' });
