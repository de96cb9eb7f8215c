/**
 * REST access control: the route-level hooks that turn an `Authorization` header into
 * `request.caller`, and the checks of the caller's organisation and grants.
 *
 * A token's signature and expiry are checked before the body is read. Whether its organisation
 * is still enabled and on the token's key version is checked by the request's first query,
 * which for every data-import endpoint is the lookup of the supplier it names: one statement
 * instead of two on every request. A request that fails before that query still gets 401 when
 * its token has been revoked (see `confirmBeforeSending`). Requests that ask the same check at
 * once share its query (`CallerLookups`), never one sent before they asked.
 */
import type {
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
} from 'fastify';
import type { AppContext } from '../context.js';
import type { Db, ImportSupplier } from '../db/database.js';
import { SharedLookups } from '../db/shared-lookups.js';
import { ServiceError } from '../errors.js';
import { toServiceError } from '../http/errors.plugin.js';
import { looksLikeApiKey } from './api-keys.js';
import { findActiveOrganisation, findCallerSupplier } from './auth.repository.js';
import { authenticationError, verifyAccessToken } from './tokens.js';

/** The organisation a request acts for, as its verified token states it. */
export interface Caller {
  organisationId: number;
  organisationName: string;
  keyVersion: number;
  /** Set once a query has found the organisation enabled and still on `keyVersion`. */
  confirmed: boolean;
  /**
   * The size of the request's body as its headers declare it (0 without a body), undefined when
   * they do not (a chunked body): how much a request holds while it waits for a shared check.
   */
  bodyBytes: number | undefined;
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

type ActiveOrganisation = Awaited<ReturnType<typeof findActiveOrganisation>>;
type CallerSupplier = Awaited<ReturnType<typeof findCallerSupplier>>;

/**
 * A request whose body is larger than this runs its checks alone, at once: waiting for a shared
 * check keeps its parsed body alive meanwhile, and a hostile body can take tens of times its
 * size parsed. An account is a few kB.
 */
export const SHARED_CHECK_MAX_BODY = 64 * 1024;
/**
 * The requests waiting for shared checks hold at most this many bytes of declared body between
 * them; a request that would go past it runs its check alone. So what the waits keep alive is
 * bounded whatever the number of connections.
 */
export const SHARED_CHECK_WAITING_BODIES = 512 * 1024;

/** An answer may serve several requests: frozen, so that none can change what another reads. */
function frozen<T>(value: T): T {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/**
 * The caller checks of one database, shared by the requests that ask the same one at once
 * (see SharedLookups): each request still gets an answer read after it asked. Only requests
 * with small bodies wait to share (see SHARED_CHECK_MAX_BODY); the others ask alone. Either
 * way the answer is frozen, so a request never depends on which way it was asked.
 */
class CallerLookups {
  readonly organisations: SharedLookups<[number, number], ActiveOrganisation>;
  readonly suppliers: SharedLookups<[number, number, string], CallerSupplier>;
  readonly #findOrganisation: (
    organisationId: number,
    keyVersion: number,
  ) => Promise<ActiveOrganisation>;
  readonly #findSupplier: (
    organisationId: number,
    keyVersion: number,
    code: string,
  ) => Promise<CallerSupplier>;
  /** The declared body bytes of the requests now waiting for a shared check. */
  #waitingBodies = 0;

  constructor(db: Db) {
    this.#findOrganisation = async (organisationId, keyVersion) =>
      frozen(await findActiveOrganisation(db.kysely, organisationId, keyVersion));
    this.#findSupplier = async (organisationId, keyVersion, code) => {
      const found = await findCallerSupplier(db.kysely, organisationId, keyVersion, code);
      frozen(found?.supplier);
      return frozen(found);
    };
    this.organisations = new SharedLookups(this.#findOrganisation);
    this.suppliers = new SharedLookups(this.#findSupplier);
  }

  /** The caller's organisation if still active; `bodyBytes`: what the request holds meanwhile. */
  organisation(caller: Caller, bodyBytes: number | undefined): Promise<ActiveOrganisation> {
    const { organisationId, keyVersion } = caller;
    return this.ask(
      bodyBytes,
      () =>
        this.organisations.lookup(`${organisationId}/${keyVersion}`, organisationId, keyVersion),
      () => this.#findOrganisation(organisationId, keyVersion),
    );
  }

  /** findCallerSupplier for the caller, shared when its body may wait. */
  supplier(caller: Caller, code: string): Promise<CallerSupplier> {
    const { organisationId, keyVersion } = caller;
    return this.ask(
      caller.bodyBytes,
      () =>
        this.suppliers.lookup(
          `${organisationId}/${keyVersion}/${code}`,
          organisationId,
          keyVersion,
          code,
        ),
      () => this.#findSupplier(organisationId, keyVersion, code),
    );
  }

  /**
   * `shared()` when a request holding `bodyBytes` may wait for it, else `alone()`; undefined
   * (a size not known) always asks alone.
   */
  async ask<Result>(
    bodyBytes: number | undefined,
    shared: () => Promise<Result>,
    alone: () => Promise<Result>,
  ): Promise<Result> {
    if (
      bodyBytes === undefined ||
      bodyBytes > SHARED_CHECK_MAX_BODY ||
      this.#waitingBodies + bodyBytes > SHARED_CHECK_WAITING_BODIES
    ) {
      return alone();
    }
    this.#waitingBodies += bodyBytes;
    try {
      return await shared();
    } finally {
      this.#waitingBodies -= bodyBytes;
    }
  }
}

const callerLookups = new WeakMap<Db, CallerLookups>();

/** The shared caller checks of `db`. */
export function callerLookupsOf(db: Db): CallerLookups {
  let lookups = callerLookups.get(db);
  if (!lookups) {
    lookups = new CallerLookups(db);
    callerLookups.set(db, lookups);
  }
  return lookups;
}

/**
 * Confirms the caller's organisation on its own, for a request that names no supplier.
 * `alone`: never wait to share the query (the request holds more than its body meanwhile).
 */
export async function confirmCaller(
  db: Db,
  caller: Caller,
  { alone = false }: { alone?: boolean } = {},
): Promise<void> {
  if (caller.confirmed) return;
  const organisation = await callerLookupsOf(db).organisation(
    caller,
    alone ? undefined : caller.bodyBytes,
  );
  if (!organisation) throw revokedToken();
  markConfirmed(caller);
}

/**
 * The supplier `code` when it exists and is granted to the caller, looked up in the query that
 * confirms the caller's organisation; a revoked token gets 401.
 */
export async function findGrantedSupplier(
  db: Db,
  caller: Caller,
  code: string,
): Promise<ImportSupplier | undefined> {
  const found = await callerLookupsOf(db).supplier(caller, code);
  if (!found) throw revokedToken();
  markConfirmed(caller);
  return found.supplier;
}

/** Records that a query sent after the request began found the caller's organisation active. */
export function markConfirmed(caller: Caller): void {
  caller.confirmed = true;
}

/** The hooks a protected route declares: `{ schema, ...authenticate(ctx) }`. */
export interface AccessHooks {
  onRequest: onRequestAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
}

/**
 * Route-level hooks, declared per route so that no body is read for a caller without a valid
 * token. Every answer then passes `confirmBeforeSending`.
 */
export function authenticate(ctx: AppContext): AccessHooks {
  return {
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
        confirmed: false,
        bodyBytes: declaredBodyBytes(request),
      };
    },
    onSend: (request, reply, payload) => confirmBeforeSending(ctx, request, reply, payload),
  };
}

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

/**
 * A disabled organisation or a rotated key is refused at once, whatever else is wrong with the
 * request: a refusal sent before the organisation was checked (a bad body, a validation error)
 * is replaced by 401 when the token turns out to be revoked. A success without the check is a
 * fault of the route, never sent.
 */
async function confirmBeforeSending(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const caller = request.caller as Caller | undefined;
  // No caller: refused before the token was read (or by the token check itself).
  if (caller === undefined || caller.confirmed) return payload;
  const status = reply.statusCode;
  if (status < 400) {
    const fault = new Error(
      `${request.routeOptions.url ?? request.url} answered an unchecked caller`,
    );
    return answerInstead(request, reply, fault);
  }
  if (status === 401 || status >= 500) return payload;
  try {
    // The wait would also hold the response, which the waiting budget does not count: an
    // error's answer only, so this rare check is asked alone.
    await confirmCaller(ctx.db, caller, { alone: true });
  } catch (error) {
    return answerInstead(request, reply, error);
  }
  return payload;
}

/**
 * The body that replaces a reply's own, for `error`, in the error format. The error handler has
 * already run for this reply, so an error thrown from here would get Fastify's own body (with
 * the driver's message in it); a database that fails the check answers 503 as anywhere else.
 */
function answerInstead(request: FastifyRequest, reply: FastifyReply, error: unknown): string {
  const answer = toServiceError(error);
  if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
  reply.code(answer.status).headers(answer.headers).type('application/json; charset=utf-8');
  return JSON.stringify(answer.body);
}
