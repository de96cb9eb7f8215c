/** Every SQL statement on operations teams. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Team } from './operator.types.js';

/** Inserts the team; undefined when the name is taken. */
export async function insertTeam(
  db: Kysely<Database>,
  name: string,
  createdAt: number,
): Promise<Team | undefined> {
  const row = await db
    .insertInto('operations_teams')
    .values({ name, created_at: createdAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning(['name', 'created_at'])
    .executeTakeFirst();
  return row && { name: row.name, createdAt: Number(row.created_at) };
}

export async function listTeams(db: Kysely<Database>): Promise<Team[]> {
  const rows = await db
    .selectFrom('operations_teams')
    .select(['name', 'created_at'])
    .orderBy('name')
    .execute();
  return rows.map((row) => ({ name: row.name, createdAt: Number(row.created_at) }));
}

/** True when a team has exactly this name. */
export async function teamExists(db: Kysely<Database>, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('operations_teams')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/** True when at least one operations team exists. */
export async function anyTeam(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('operations_teams').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}
