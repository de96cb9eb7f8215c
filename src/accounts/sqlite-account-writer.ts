/**
 * The account on SQLite: one INSERT per table with rows, in the group commit's transaction
 * (statements on SQLite are calls into the process, so their number costs little).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { atomicWrite } from '../db/storage.js';
import { recordEvents } from '../events/events.repository.js';
import { completeProcess } from './process-completion.js';
import { ACCOUNT_TABLE, CHILD_TABLES, type AccountRows } from './account-rows.js';
import { rowsInsert } from './account-statements.js';
import { ClaimLost, type AccountWriter } from './account-writer.js';

const accountInsert = rowsInsert('accounts', Object.keys(ACCOUNT_TABLE.columns), ['id']);
const childInserts = CHILD_TABLES.map(({ table, columns }) =>
  rowsInsert(table, ['account_id', ...Object.keys(columns)]),
);

async function insertAccount(db: Kysely<Database>, rows: AccountRows): Promise<number> {
  const inserted = await accountInsert(db, [rows.account]);
  const accountId = Number(inserted.rows[0]?.id);
  for (const [i, insert] of childInserts.entries()) {
    const children = rows.children[i] ?? [];
    if (children.length > 0) {
      await insert(
        db,
        children.map((row) => ({ ...row, account_id: accountId })),
      );
    }
  }
  return accountId;
}

export const sqliteAccountWriter: AccountWriter = {
  async write(db, rows, completion) {
    try {
      return await atomicWrite(db, async (executor) => {
        const accountId = await insertAccount(executor, rows);
        if ('rollBackWith' in completion) throw completion.rollBackWith;
        const { account } = rows;
        const written = { id: accountId, number: account.number, createdAt: account.created_at };
        const completed = await completeProcess(
          executor,
          account.import_process_id,
          completion.claimId,
          written,
        );
        if (!completed) throw new ClaimLost();
        await recordEvents(executor, [
          {
            ...completion.event,
            supplierId: account.supplier_id,
            externalAccountNumber: account.external_account_number,
            occurredAt: account.created_at,
          },
        ]);
        if (completion.along && !(await completion.along(executor, written))) throw new ClaimLost();
        return accountId;
      });
    } catch (error) {
      if (error instanceof ClaimLost) return undefined;
      throw error;
    }
  },
};
