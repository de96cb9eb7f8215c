/**
 * The first steps every post-import request takes, in this order: its body is validated against
 * its published schema (every error at once; the caller is confirmed before that refusal is
 * answered, so a revoked token still gets 401), then the caller is confirmed in the statement
 * that finds the created account the body names (created-account.ts), which refuses an unknown
 * or ungranted supplier, one not Ongoing, nothing staged and nothing created.
 */
import { refuseConfirmed, type Caller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import { requireObjectBody, validOrRefused, type NulPath } from '../http/json-body.js';
import { platformView } from '../platform/platform-data.js';
import { runType, startRun } from '../payload/run.js';
import type { Type } from '../payload/validators.js';
import { confirmCreatedAccount, type AccountName, type CreatedAccount } from './created-account.js';

/** A post-import request whose body is valid, and the created account it adds to. */
export interface PostImportRequest<Body> {
  readonly body: Body;
  readonly account: CreatedAccount;
}

/**
 * The body validated with `schema` against the platform's reference data (no rule of these
 * schemas reads a supplier's settings), and the created account `nameOf` the body names.
 */
export async function confirmPostImport<Body>(
  ctx: AppContext,
  caller: Caller,
  body: unknown,
  nulPaths: readonly NulPath[] | undefined,
  schema: Type<Body>,
  nameOf: (body: Body) => AccountName,
): Promise<PostImportRequest<Body>> {
  let valid: Body;
  try {
    const run = startRun({ platform: platformView(ctx.platform.current, '{}') });
    valid = validOrRefused(runType(schema, requireObjectBody(body), run), nulPaths, 'request');
  } catch (refusal) {
    return refuseConfirmed(ctx.db, caller, refusal);
  }
  const account = await confirmCreatedAccount(ctx, caller, nameOf(valid));
  return { body: valid, account };
}
