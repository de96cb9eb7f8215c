import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OperatorError } from '../../src/shared/operator-error.js';
import { addTeam, listTeams } from '../../src/operator/teams.service.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

await describeEachDialect('operator: operations teams', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  it('adds a team under its trimmed name', async () => {
    const team = await addTeam(db, '  Migrations  ');
    expect(team.name).toBe('Migrations');
    const stored = await db.kysely.selectFrom('operations_teams').selectAll().execute();
    expect(stored.map((t) => t.name)).toEqual(['Migrations']);
    expect(Number(stored[0]?.created_at)).toBe(team.createdAt);
  });

  it('refuses a duplicate name, also when it differs only by spaces', async () => {
    await expect(addTeam(db, 'Migrations')).rejects.toThrow(OperatorError);
    await expect(addTeam(db, ' Migrations')).rejects.toThrow('team "Migrations" already exists');
  });

  it.each([
    '',
    '   ',
    'x'.repeat(256),
    'Migra\ntions',
    'Migra\u001b[31mtions',
    'Migra\u202Esnoit',
    'Migra\u2067tions\u2069',
    'Migra\u200Ftions',
  ])('refuses the name %j', (name) =>
    expect(addTeam(db, name)).rejects.toThrow(/invalid team name/),
  );

  it('accepts a name of 255 characters', async () => {
    expect((await addTeam(db, 'y'.repeat(255))).name).toHaveLength(255);
  });

  it('lists teams ordered by name', async () => {
    await addTeam(db, 'Billing');
    expect((await listTeams(db)).map((t) => t.name)).toEqual([
      'Billing',
      'Migrations',
      'y'.repeat(255),
    ]);
  });
});
