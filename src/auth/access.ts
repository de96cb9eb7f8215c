/**
 * REST access control: the route-level hook that turns an `Authorization` header into
 * `request.caller`, and the check that turns that caller into a ConfirmedCaller.
 *
 * A token's signature and expiry are checked before the body is read (`authenticate`). Whether
 * its organisation is still enabled and on the token's key version is the first explicit step of
 * every protected handler, and nothing is answered before it but a 401 or an outage: a revoked
 * token gets 401 whatever else is wrong with its request. The services only take a caller so
 * checked. The check rides on the request's first query, which also reads what the request
 * needs (the supplier it names, or more): one statement instead of two. Requests that ask the
 * same check at once share its query (caller-lookups.ts).
 */
import type { FastifyError, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import type { Db, ImportSupplier } from '../db/database.js';
import type { ServiceError } from '../errors.js';
import { looksLikeApiKey } from './api-keys.js';
import { callerLookupsOf } from './caller-lookups.js';
import { authenticationError, verifyAccessToken } from './tokens.js';

/** The organisation a request acts for, as its verified token states it. */
export interface Caller {
  readonly organisationId: number;
  readonly organisationName: string;
  readonly keyVersion: number;
  /**
   * The size of the request's body as its headers declare it (0 without a body), undefined when
   * they do not (a chunked body): how much a request holds while it waits for a shared check.
   */
  readonly bodyBytes: number | undefined;
  /** The request's id (X-Request-Id), which the events it causes carry (src/events/). */
  readonly requestId?: string;
}

declare const confirmation: unique symbol;

/**
 * A caller whose organisation a query sent during this request found enabled and still on the
 * token's key version. Only this module makes one (see `confirmWith`).
 */
export type ConfirmedCaller = Caller & { readonly [confirmation]: true };

/** What a check found besides the caller: the request's first lookup. */
export interface Confirmed<Found> {
  readonly caller: ConfirmedCaller;
  readonly found: Found;
}

/** A confirmed caller and the supplier the request names, if it exists and is granted to it. */
export interface SupplierAccess {
  readonly caller: ConfirmedCaller;
  readonly supplier: ImportSupplier | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate`; only present on routes that declare it. */
    caller: Caller;
  }
}

const SCHEME_AND_TOKEN = /^(token|bearer|jwt)\s+(\S+)$/i;
const SCHEME_ONLY = /^(token|bearer|jwt)$/i;
const BARE_TOKEN = /^\S+$/;

/**
 * The token of an Authorization header in any accepted form; undefined when there is none,
 * including a scheme with nothing after it (`Token ` from a script whose token came out empty).
 */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (!value || SCHEME_ONLY.test(value)) return undefined;
  const withScheme = SCHEME_AND_TOKEN.exec(value);
  if (withScheme) return withScheme[2];
  if (BARE_TOKEN.test(value)) return value;
  throw authenticationError(
    'invalid_token',
    'The Authorization header must be "Token <token>" (Bearer and JWT are accepted too).',
  );
}

/** The 401 of a token whose organisation was disabled or whose key was rotated. */
export const revokedToken = (): ServiceError =>
  authenticationError(
    'invalid_token',
    'The token has been revoked: its organisation was disabled or its API key was replaced.',
  );

/**
 * The caller confirmed by `lookup`, a query of the request that also checks the caller's
 * organisation (one built on callerSupplierQuery), with what it found. The lookup answers
 * undefined exactly when the organisation is disabled or on another key version: 401.
 */
export async function confirmWith<Found>(
  caller: Caller,
  lookup: (caller: Caller) => Promise<Found | undefined>,
): Promise<Confirmed<Found>> {
  const found = await lookup(caller);
  if (found === undefined) throw revokedToken();
  return { caller: caller as ConfirmedCaller, found };
}

/**
 * Confirms the caller with one query, which also finds the supplier `code` when it exists and
 * is granted to the caller; requests with small bodies share it (caller-lookups.ts). Without a
 * code (none in the request, or not one that can name a supplier) only the organisation is
 * checked (confirmCaller).
 */
export async function confirmSupplierAccess(
  db: Db,
  caller: Caller,
  code: string | undefined,
): Promise<SupplierAccess> {
  if (code === undefined) return { caller: await confirmCaller(db, caller), supplier: undefined };
  const lookups = callerLookupsOf(db);
  const { caller: confirmed, found } = await confirmWith(caller, () =>
    lookups.supplier(caller, code),
  );
  return { caller: confirmed, supplier: found.supplier };
}

/**
 * Confirms the caller's organisation on its own, for a request that names no supplier. Every
 * such request is refused, so its query is sent alone: sharing pays for requests that go on.
 */
export async function confirmCaller(db: Db, caller: Caller): Promise<ConfirmedCaller> {
  const lookups = callerLookupsOf(db);
  return (await confirmWith(caller, () => lookups.organisation(caller, undefined))).caller;
}

/**
 * Throws `refusal`, a request's own refusal found before its caller was checked, once the
 * caller is confirmed: a revoked token gets 401 instead.
 */
export async function refuseConfirmed(db: Db, caller: Caller, refusal: unknown): Promise<never> {
  await confirmCaller(db, caller);
  throw refusal;
}

/**
 * The supplier code a request gives, or undefined when it gives none that can name a supplier
 * (not a string, blank, or holding U+0000, which names no supplier and which PostgreSQL could
 * not even compare).
 */
export function supplierCodeOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim();
  return code === '' || code.includes('\u0000') ? undefined : code;
}

/** What a protected route declares: `{ schema, ...authenticate(ctx) }`. */
export interface AccessHooks {
  onRequest: onRequestAsyncHookHandler;
  errorHandler: (error: FastifyError, request: FastifyRequest) => Promise<never>;
}

/**
 * The route-level hooks, declared per route so that no body is read for a caller without a
 * valid token. `onRequest` only verifies the token: the handler confirms the caller as its
 * first step. A body Fastify itself refuses while reading it (too large, of another media
 * type, cut short) never reaches the handler, so `errorHandler` confirms the caller before that
 * refusal is answered: a revoked token gets 401 there too.
 */
export function authenticate(ctx: AppContext): AccessHooks {
  return {
    async errorHandler(error, request) {
      const caller = request.caller as Caller | undefined;
      // Any error may pass here (a driver's has no string code): only Fastify's own are matched.
      const code: unknown = error.code;
      if (caller !== undefined && typeof code === 'string' && code.startsWith(BODY_READING_ERROR)) {
        await confirmCaller(ctx.db, caller);
      }
      throw error;
    },
    async onRequest(request) {
      const token = tokenFromHeader(request.headers.authorization);
      if (token === undefined) {
        throw authenticationError(
          'not_authenticated',
          'Authentication credentials were not provided.',
        );
      }
      let verified;
      try {
        verified = await verifyAccessToken(ctx.tokenSecret, token);
      } catch (error) {
        // Only a refused token is looked at again: an API key is the usual wrong one.
        if (!looksLikeApiKey(token)) throw error;
        throw authenticationError(
          'invalid_token',
          'This is an API key, not a token: exchange it for a token with the obtainToken ' +
            'mutation at /v1/graphql/, and send that token.',
        );
      }
      request.caller = {
        organisationId: verified.organisationId,
        organisationName: verified.organisationName,
        keyVersion: verified.keyVersion,
        bodyBytes: declaredBodyBytes(request),
        requestId: request.id,
      };
    },
  };
}

/** The code prefix of the errors Fastify raises reading a body (FST_ERR_CTP_BODY_TOO_LARGE…). */
const BODY_READING_ERROR = 'FST_ERR_CTP_';

const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/**
 * The body size the request's headers declare: 0 when it has none (or its method's body is
 * never read), undefined when chunked or not a plain number.
 */
export function declaredBodyBytes(request: {
  method: string;
  headers: FastifyRequest['headers'];
}): number | undefined {
  if (BODYLESS_METHODS.has(request.method)) return 0;
  const length = request.headers['content-length'];
  if (length === undefined)
    return request.headers['transfer-encoding'] === undefined ? 0 : undefined;
  return /^\d{1,15}$/.test(length) ? Number(length) : undefined;
}
