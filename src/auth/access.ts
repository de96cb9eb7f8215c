/**
 * REST access control: the route-level hook that turns an `Authorization` header into
 * `request.caller`, and the grant check every supplier-scoped endpoint makes.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { findActiveOrganisation } from './auth.repository.js';
import { authenticationError, verifyAccessToken } from './tokens.js';

export { findGrantedSupplier } from './auth.repository.js';

/** The organisation a request acts for. */
export interface Caller {
  organisationId: number;
  organisationName: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate`; only present on routes that declare it. */
    caller: Caller;
  }
}

const SCHEME_AND_TOKEN = /^(token|bearer|jwt)\s+(\S+)$/i;
const BARE_TOKEN = /^\S+$/;

/** The token of an Authorization header in any accepted form; undefined when there is none. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  const withScheme = SCHEME_AND_TOKEN.exec(value);
  if (withScheme) return withScheme[2];
  if (BARE_TOKEN.test(value)) return value;
  throw authenticationError(
    'invalid_token',
    'The Authorization header must be "Token <token>" (Bearer and JWT are accepted too).',
  );
}

/**
 * Route-level hook, declared per route as `onRequest: authenticate(ctx)` so that no body is read for an unauthenticated caller. A disabled
 * organisation or a rotated key is refused at once: every request re-reads the organisation.
 */
export function authenticate(ctx: AppContext): onRequestAsyncHookHandler {
  return async function authenticateRequest(request) {
    const token = tokenFromHeader(request.headers.authorization);
    if (token === undefined) {
      throw authenticationError(
        'not_authenticated',
        'Authentication credentials were not provided.',
      );
    }
    const verified = await verifyAccessToken(ctx.tokenSecret, token);
    const organisation = await findActiveOrganisation(
      ctx.db.kysely,
      verified.organisationId,
      verified.keyVersion,
    );
    if (!organisation) {
      throw authenticationError('invalid_token', 'The token has been revoked.');
    }
    request.caller = { organisationId: organisation.id, organisationName: organisation.name };
  };
}
