/**
 * On PostgreSQL, the four foreign keys that point every stage and every account creation at
 * the same few rows are replaced by triggers on those rows. The references are:
 * - a staged version's organisation;
 * - a process's supplier;
 * - an account's supplier;
 * - an account's operations team.
 *
 * PostgreSQL checks a foreign key by locking the referenced row (FOR KEY SHARE). When several
 * connections stage for one organisation at once, each lock on the organisation's row is
 * recorded as a new multixact naming every current holder. One benchmark run of the two stage
 * scenarios made PostgreSQL create about 26,000 multixacts; without these four keys it created
 * none, and spent less CPU per stage. The references to rows the same transaction writes (a version's process,
 * an account's children) are not shared and keep their foreign keys. SQLite's check is a
 * lookup that takes no lock, so SQLite keeps all of them, and this migration does nothing there.
 *
 * What the foreign keys guaranteed still holds:
 * - Inserts: the service writes these columns only with ids it has just read. A stage's
 *   statement reads the organisation and the supplier itself; a creation copies the claimed
 *   process's supplier and uses the team found by name.
 * - Deletes, id changes and TRUNCATE: the triggers refuse them while a row still refers to the
 *   organisation, supplier or team, as the foreign key's NO ACTION did. The service never
 *   deletes or renumbers these rows. Unlike the foreign key, the trigger cannot see a reference
 *   that a concurrent transaction has not yet committed, and nothing refuses an insert or an
 *   update of the referring column with an id that points nowhere.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

interface Reference {
  /** The shared row's table. */
  parent: string;
  child: string;
  column: string;
  /** The name PostgreSQL gave the foreign key when the first migration created it. */
  constraint: string;
}

const REFERENCES: readonly Reference[] = [
  {
    parent: 'organisations',
    child: 'import_process_versions',
    column: 'organisation_id',
    constraint: 'import_process_versions_organisation_id_fkey',
  },
  {
    parent: 'import_suppliers',
    child: 'import_processes',
    column: 'supplier_id',
    constraint: 'import_processes_supplier_id_fkey',
  },
  {
    parent: 'import_suppliers',
    child: 'accounts',
    column: 'supplier_id',
    constraint: 'accounts_supplier_id_fkey',
  },
  {
    parent: 'operations_teams',
    child: 'accounts',
    column: 'operations_team_id',
    constraint: 'accounts_operations_team_id_fkey',
  },
];

const PARENTS = [...new Set(REFERENCES.map((reference) => reference.parent))];

const triggerName = (parent: string) => `${parent}_still_referenced`;
const truncateTriggerName = (parent: string) => `${parent}_truncate_still_referenced`;

/** Refuses to delete or renumber a row that rows of the tables in its arguments refer to. */
const REFUSE_IF_REFERENCED = sql`
  create function refuse_if_referenced() returns trigger language plpgsql as $$
  declare
    i integer := 0;
    referenced boolean;
  begin
    if tg_op = 'UPDATE' and new.id = old.id then
      return new;
    end if;
    -- The arguments come in pairs: a table, and its column that holds this table's id.
    while i < tg_nargs loop
      execute format('select exists (select from %I where %I = $1)', tg_argv[i], tg_argv[i + 1])
        into referenced using old.id;
      if referenced then
        raise foreign_key_violation using message = format(
          '%s %s is still referenced from %s.%s', tg_table_name, old.id, tg_argv[i], tg_argv[i + 1]);
      end if;
      i := i + 2;
    end loop;
    return case when tg_op = 'DELETE' then old else new end;
  end
  $$`;

/** Refuses to empty a table (TRUNCATE) while rows of the tables in its arguments exist. */
const REFUSE_TRUNCATE_IF_REFERENCED = sql`
  create function refuse_truncate_if_referenced() returns trigger language plpgsql as $$
  declare
    i integer := 0;
    referenced boolean;
  begin
    while i < tg_nargs loop
      execute format('select exists (select from %I)', tg_argv[i]) into referenced;
      if referenced then
        raise foreign_key_violation using message = format(
          '%s is still referenced from %s.%s', tg_table_name, tg_argv[i], tg_argv[i + 1]);
      end if;
      i := i + 2;
    end loop;
    return null;
  end
  $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await REFUSE_IF_REFERENCED.execute(db);
  await REFUSE_TRUNCATE_IF_REFERENCED.execute(db);
  for (const parent of PARENTS) {
    const pairs = REFERENCES.filter((reference) => reference.parent === parent).flatMap(
      ({ child, column }) => [sql.lit(child), sql.lit(column)],
    );
    await sql`create trigger ${sql.id(triggerName(parent))}
      before delete or update of id on ${sql.table(parent)}
      for each row execute function refuse_if_referenced(${sql.join(pairs)})`.execute(db);
    await sql`create trigger ${sql.id(truncateTriggerName(parent))}
      before truncate on ${sql.table(parent)}
      for each statement execute function refuse_truncate_if_referenced(${sql.join(pairs)})`.execute(
      db,
    );
  }
  for (const { child, constraint } of REFERENCES) {
    await db.schema.alterTable(child).dropConstraint(constraint).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const { parent, child, column, constraint } of REFERENCES) {
    await db.schema
      .alterTable(child)
      .addForeignKeyConstraint(constraint, [column], parent, ['id'])
      .execute();
  }
  for (const parent of PARENTS) {
    await sql`drop trigger ${sql.id(triggerName(parent))} on ${sql.table(parent)}`.execute(db);
    await sql`drop trigger ${sql.id(truncateTriggerName(parent))} on ${sql.table(parent)}`.execute(
      db,
    );
  }
  await sql`drop function refuse_if_referenced()`.execute(db);
  await sql`drop function refuse_truncate_if_referenced()`.execute(db);
}
