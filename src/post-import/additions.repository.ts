/**
 * Every SQL statement of the post-import endpoints: the items added to a created account
 * (table account_additions, one row per item, unique by account, kind and key), and what they
 * are checked against in the account as it was created (its document and its account_keys).
 */
import { createHash } from 'node:crypto';
import { compiledInsert, compiledQuery, type Params } from '../db/compiled.js';
import type { Executor } from '../db/database.js';

/** What the post-import endpoints add, by the kind its rows carry. */
export type AdditionKind = 'statement' | 'note' | 'payment_instruction';

/** An item to add: its identity within its kind on the account, and the item as JSON. */
export interface Addition {
  key: string;
  data: string;
}

/** Identities longer than this are stored as their SHA-256, so an index entry stays small. */
const LONGEST_KEY = 256;

/**
 * The stored form of an identity: itself when short (prefixed `=`), else `#` and its SHA-256,
 * so that an unbounded statement id or note body fits a unique index on both databases.
 */
export function storedKey(identity: string): string {
  return identity.length <= LONGEST_KEY
    ? `=${identity}`
    : `#${createHash('sha256').update(identity).digest('hex')}`;
}

/** Rows per statement: well within SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) parts.push(items.slice(i, i + CHUNK));
  return parts;
}

/**
 * The insert of addItems: compiled once per number of items, up to compiledInsert's bound, and
 * split into statements within the engines' limits on bound values.
 */
const insertAdditions = compiledInsert(
  'account_additions',
  ['account_id', 'kind', 'key', 'data', 'created_at'],
  ['id', 'key'],
  ['account_id', 'kind', 'key'],
);

/**
 * Adds the items whose key the account does not hold yet in that kind; the keys added, each
 * with its row's id. An item
 * whose key is held (added before, by this statement or a concurrent request) is left out: on
 * PostgreSQL a concurrent insert of the same key waits for the other transaction, then skips.
 */
export async function addItems(
  executor: Executor,
  accountId: number,
  kind: AdditionKind,
  items: readonly Addition[],
  at: number,
): Promise<Map<string, number>> {
  if (items.length === 0) return new Map();
  // In key order: two requests inserting the same keys then lock them in the same order, and
  // PostgreSQL never finds them waiting on each other (a deadlock, which it would abort).
  const ordered = [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rows = ordered.map(({ key, data }) => ({
    account_id: accountId,
    kind,
    key,
    data,
    created_at: at,
  }));
  const inserted = (await insertAdditions(executor, rows)).rows;
  return new Map(inserted.map((row) => [row.key as string, Number(row.id)]));
}

const itemsOfKind = compiledQuery((db, p: Params<{ accountId: number; kind: AdditionKind }>) =>
  db
    .selectFrom('account_additions')
    .select('data')
    .where('account_id', '=', p.accountId)
    .where('kind', '=', p.kind)
    .orderBy('id'),
);

/** The items of `kind` added to the account so far, as JSON, oldest first. */
export async function addedItems(
  executor: Executor,
  accountId: number,
  kind: AdditionKind,
): Promise<string[]> {
  const { rows } = await itemsOfKind(executor, { accountId, kind });
  return rows.map((row) => row.data);
}

/** Everything added to an account since its creation, by kind, each item oldest first. */
export interface AddedItems {
  statements: unknown[];
  notes: unknown[];
  payment_instructions: unknown[];
}

const LIST_OF: Record<AdditionKind, keyof AddedItems> = {
  statement: 'statements',
  note: 'notes',
  payment_instruction: 'payment_instructions',
};

/** What was added to the account since its creation (account show). */
export async function allAddedItems(executor: Executor, accountId: number): Promise<AddedItems> {
  const rows = await executor
    .selectFrom('account_additions')
    .select(['kind', 'data'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  const added: AddedItems = { statements: [], notes: [], payment_instructions: [] };
  for (const { kind, data } of rows) {
    const list = LIST_OF[kind as AdditionKind] as keyof AddedItems | undefined;
    if (list !== undefined) added[list].push(JSON.parse(data));
  }
  return added;
}

/** Which of `ids` the account's own statements (as created) hold. */
export async function createdStatementIds(
  executor: Executor,
  accountId: number,
  ids: readonly string[],
): Promise<Set<string>> {
  const held = new Set<string>();
  for (const part of chunks(ids)) {
    const rows = await executor
      .selectFrom('account_keys')
      .select('value')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'statement')
      .where('value', 'in', part)
      .execute();
    for (const row of rows) held.add(row.value);
  }
  return held;
}

/** A document an added item names, located (src/accounts/documents.ts). */
export interface LocatedDocument {
  source: string;
  path: string;
  location: string;
}

/** Keeps where the documents of added items are, beside those of the account as created. */
export async function locateDocuments(
  executor: Executor,
  accountId: number,
  documents: readonly LocatedDocument[],
): Promise<void> {
  for (const part of chunks(documents)) {
    await executor
      .insertInto('account_documents')
      .values(part.map((document) => ({ account_id: accountId, ...document })))
      .execute();
  }
}
