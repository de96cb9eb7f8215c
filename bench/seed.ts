/** Seeding the database directly, under the service, for the scenarios that need many rows. */
import SQLite from 'better-sqlite3';
import pg from 'pg';
/**
 * Seeds rows straight into the database `databaseUrl` names, with `sqlite` (given the file's
 * path) or `postgres` (given the URL); returns the seconds it took.
 */
export async function seedTimed(
  databaseUrl: string,
  sqlite: (path: string) => void,
  postgres: (url: string) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  if (databaseUrl.startsWith('sqlite:')) sqlite(databaseUrl.slice('sqlite:'.length));
  else await postgres(databaseUrl);
  return (performance.now() - started) / 1000;
}

/** Rows written per SQLite transaction. */
const SQLITE_BATCH = 100_000;

/**
 * Writes rows 0 to `count - 1` for the supplier `supplierCode` of the SQLite database at `path`:
 * `prepare` is given the database and the supplier's id and returns the writer of row `i`; the
 * rows are written in transactions of SQLITE_BATCH, then the database is analysed.
 */
export function seedSqlite(
  path: string,
  supplierCode: string,
  count: number,
  prepare: (db: SQLite.Database, supplierId: number) => (i: number) => void,
): void {
  const db = new SQLite(path);
  try {
    db.pragma('busy_timeout = 10000');
    const supplier = db
      .prepare('SELECT id FROM import_suppliers WHERE code = ?')
      .get(supplierCode) as { id: number } | undefined;
    if (!supplier) throw new Error(`no supplier ${supplierCode}`);
    const write = prepare(db, supplier.id);
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) write(i);
    });
    for (let from = 0; from < count; from += SQLITE_BATCH) {
      batch(from, Math.min(count, from + SQLITE_BATCH));
    }
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/**
 * Runs `fill` with a client of the PostgreSQL database at `url` and the id of the supplier
 * `supplierCode`, then analyses `table`.
 */
export async function seedPostgres(
  url: string,
  supplierCode: string,
  table: string,
  fill: (client: pg.Client, supplierId: string) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM import_suppliers WHERE code = $1',
      [supplierCode],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error(`no supplier ${supplierCode}`);
    await fill(client, id);
    await client.query(`ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}
