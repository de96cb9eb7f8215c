/**
 * Historical statements added to a created account. The request is all or nothing: when any
 * statement_id is one the account has (from its creation, or added since, even by a request
 * running at the same time), it is refused with each such statement named, and nothing is
 * written. (A statement_id repeated within the request is a validation error of the body.) A
 * request with no statements adds nothing: it is answered 201 and writes nothing, no event either.
 */
import type { Caller } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { atomicWrite } from '../../db/storage.js';
import { ServiceError, type FieldError } from '../../errors.js';
import type { NulPath } from '../../http/json-body.js';
import { HistoricalStatements } from '../../account/schema/generated.js';
import { addedDocuments } from '../added-documents.js';
import {
  addItems,
  createdStatementIds,
  locateDocuments,
  storedKey,
} from '../additions.repository.js';
import { confirmPostImport, type PostImportRequest } from '../post-import.request.js';
import { accountEvent } from '../created-account.js';
import { recordEvents } from '../../events/events.repository.js';

type Body = HistoricalStatements;

const nameOf = (body: Body) => ({
  supplierCode: body.import_supplier,
  externalAccountNumber: body.external_account_number,
});

/** Validates the body, finds the account, adds its statements; the body as validated. */
export async function createStatements(
  ctx: AppContext,
  caller: Caller,
  input: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<Body> {
  const request = await confirmPostImport(
    ctx,
    caller,
    input,
    nulPaths,
    HistoricalStatements,
    nameOf,
  );
  await addStatements(ctx, request);
  return request.body;
}

async function addStatements(ctx: AppContext, { body, account }: PostImportRequest<Body>) {
  // Nothing added records nothing (src/events/README.md).
  if (body.statements.length === 0) return;
  const ids = body.statements.map((statement) => statement.statement_id);
  const items = body.statements.map((statement) => ({
    key: storedKey(statement.statement_id),
    data: JSON.stringify(statement),
  }));
  await atomicWrite(ctx.db, async (executor) => {
    const created = await createdStatementIds(executor, account.accountId, ids);
    const added = await addItems(executor, account.accountId, 'statement', items, Date.now());
    const held = items.flatMap(({ key }, i) =>
      created.has(ids[i] ?? '') || !added.has(key) ? [i] : [],
    );
    // Thrown inside the write, which is then rolled back with what it added.
    if (held.length > 0) throw alreadyExists(held);
    const stored = body.statements.map((item, i) => ({
      id: added.get(items[i]?.key ?? '') as number,
      item,
    }));
    const bucket = ctx.config.documentBucket;
    const documents = addedDocuments(bucket, account, 'statements', stored);
    await locateDocuments(executor, account.accountId, documents);
    const data = { statement_ids: ids };
    const event = accountEvent(account, 'EVENT_ACCOUNT_IMPORT_PROCESS_STATEMENTS_ADDED', data);
    await recordEvents(executor, [event]);
  });
}

function alreadyExists(positions: readonly number[]): ServiceError {
  const errors: FieldError[] = positions.map((i) => ({
    detail: 'The account already has a statement with this statement_id.',
    code: 'historical_statement_already_exists',
    attr: `statements.${i}.statement_id`,
  }));
  const count = positions.length === 1 ? 'One statement' : `${positions.length} statements`;
  return new ServiceError({
    code: 'historical_statement_already_exists',
    detail: `${count} of the request already exist on the account; nothing was added.`,
    errors,
  });
}
