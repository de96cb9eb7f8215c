/**
 * A schedule is keyed by its account's process: an account has at most one schedule, so the
 * process id is its key, and the separate id and the lookup by supplier and external number
 * go. Scheduling an account then writes two index entries fewer: the separate key's (on SQLite
 * the process id becomes the table's own row id; on PostgreSQL one key replaces the id's and
 * the unique process id's) and the by-account lookup's. The by-account lookups (the stage's
 * guard, the stage blocker) reach the schedule through the account's process.
 *
 * SQLite cannot change a table's primary key, so both databases build the table anew and copy
 * the schedules across.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { idType, isPostgres } from './dialect.js';

const TABLE = 'creation_schedules';
const NEXT = 'creation_schedules_next';

/**
 * Every column but the key, as migration 0015 made them. Written out again, not shared with
 * 0015: each migration is a snapshot of the schema it leaves, and must not change with another.
 */
const COLUMNS = [
  'supplier_id',
  'external_account_number',
  'status',
  'is_dry_run',
  'window_start',
  'window_end',
  'team_id',
  'claim_id',
  'lease_until',
  'attempts',
  'error_code',
  'error_detail',
  'error_domain',
  'service_account_number',
  'created_at',
  'modified_at',
] as const;

function withColumns<T extends string>(table: CreateTableBuilder<T>): CreateTableBuilder<T> {
  return table
    .addColumn('supplier_id', 'bigint', (c) => c.notNull())
    .addColumn('external_account_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_dry_run', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('window_end', 'bigint', (c) => c.notNull())
    .addColumn('team_id', 'bigint')
    .addColumn('claim_id', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('error_domain', 'text')
    .addColumn('service_account_number', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull());
}

/**
 * Copies every schedule into NEXT, drops the old table and gives NEXT its name, and on
 * PostgreSQL its constraints' names (`constraints`: their names' ends, `pkey` and the like).
 */
async function replaceWithNext(db: Kysely<unknown>, constraints: string[]): Promise<void> {
  const columns = sql.join(['process_id', ...COLUMNS].map((c) => sql.ref(c)));
  await sql`insert into ${sql.table(NEXT)} (${columns})
    select ${columns} from ${sql.table(TABLE)}`.execute(db);
  await db.schema.dropTable(TABLE).execute();
  await db.schema.alterTable(NEXT).renameTo(TABLE).execute();
  if (!isPostgres(db)) return;
  for (const end of constraints) {
    await sql`alter table ${sql.table(TABLE)}
      rename constraint ${sql.ref(`${NEXT}_${end}`)} to ${sql.ref(`${TABLE}_${end}`)}`.execute(db);
  }
}

/** What workers claim (as in 0015). */
async function createQueueIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('creation_schedules_due')
    .on(TABLE)
    .columns(['status', 'supplier_id', 'window_start'])
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite: an INTEGER PRIMARY KEY is the row id itself, with no index of its own.
  const keyType = isPostgres(db) ? 'bigint' : 'integer';
  await withColumns(
    db.schema.createTable(NEXT).addColumn('process_id', keyType, (c) => c.primaryKey()),
  ).execute();
  await replaceWithNext(db, ['pkey']);
  await createQueueIndex(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await withColumns(
    db.schema
      .createTable(NEXT)
      .addColumn('id', idType(db), (c) => c.primaryKey())
      .addColumn('process_id', 'bigint', (c) => c.notNull().unique()),
  ).execute();
  await replaceWithNext(db, ['pkey', 'process_id_key']);
  await createQueueIndex(db);
  await db.schema
    .createIndex('creation_schedules_by_account')
    .on(TABLE)
    .columns(['supplier_id', 'external_account_number'])
    .execute();
}
