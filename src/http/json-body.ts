/** JSON request bodies: one strict parser, and the object check every POST route needs. */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, validationFailed } from '../errors.js';
import type { ValidationResult } from '../payload/run.js';
import { addFieldError, isObject } from '../payload/validators.js';
import {
  LARGE_BODY_BYTES,
  notAnObject,
  nulCharacterPaths,
  parseJsonText,
  type NulPath,
} from '../payload/json-text.js';

export { LARGE_BODY_BYTES, parseJsonText, type NulPath };

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

/**
 * A JSON body larger than LARGE_BODY_BYTES, on a `largeBodiesOffLoop` route: only its encoding
 * was checked (UTF-8, not empty). Parsing, the repeated-key and U+0000 checks and validation
 * are the route's, on a validation thread (payload/large-bodies.ts), so that one body cannot
 * hold the event loop for long; the answers are those the parser and the route give any body.
 */
export class LargeJsonText extends JsonText {}

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
    /** A body above LARGE_BODY_BYTES reaches the route as a LargeJsonText. */
    largeBodiesOffLoop?: boolean;
    /**
     * The route takes no body: a JSON body of no bytes reaches it as undefined, as a request
     * without one does, rather than refused as empty.
     */
    emptyBodyAccepted?: boolean;
  }
  interface FastifyRequest {
    /** Where the body holds U+0000, on a `nulAsFieldErrors` route; undefined when nowhere. */
    nulPaths: NulPath[] | undefined;
  }
}

export function registerJsonBodies(app: FastifyInstance): void {
  app.decorateRequest('nulPaths', undefined);
  app.removeAllContentTypeParsers();
  // JSON.parse yields `__proto__` as a plain own key and never touches prototypes; the payload
  // validators then report such keys as unknown fields, so nothing needs stripping here.
  // Read as bytes: decoding as a string would turn bytes that are not UTF-8 (a Latin-1 extract,
  // say) into U+FFFD without a word, and two different account numbers into one.
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
    // No route takes it: the answer is 404 or 405 (errors.plugin.ts), whatever the body holds.
    if (request.is404) {
      done(null, undefined);
      return;
    }
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
  if (body.length === 0 && request.routeOptions.config.emptyBodyAccepted) return undefined;
  const text = utf8Text(body);
  if (text.trim() === '') {
    throw new ServiceError({
      code: 'malformed_request',
      detail: 'The body is empty; send a JSON object.',
    });
  }
  const { config } = request.routeOptions;
  if (config.largeBodiesOffLoop && body.length > LARGE_BODY_BYTES) return new LargeJsonText(text);
  const asText = config.jsonText === true;
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
