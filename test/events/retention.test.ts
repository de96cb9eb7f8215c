/**
 * The event log's retention: pruning deletes the events older than a number of days in
 * batches, keeps the newest event whatever its age, and `account-import events prune` prints
 * what it deleted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { recordEvents } from '../../src/events/events.repository.js';
import { pruneEvents } from '../../src/events/feed.repository.js';
import { pruneOlderThan, retentionDays } from '../../src/events/retention.js';
import { OperatorError } from '../../src/shared/operator-error.js';
import { json, runCli } from '../cli/run-cli.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const DAY = 86_400_000;

await describeEachDialect('event retention', (dialect) => {
  let db: Db;
  let url: string;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, url, destroy } = await openTestDb(dialect));
  });
  afterAll(() => destroy());

  /** Appends one event per age, in days before now, in the order given. */
  const eventsAged = (days: readonly number[]) =>
    recordEvents(
      db.kysely,
      days.map((age, i) => ({
        supplierId: 1,
        externalAccountNumber: `R-${i}`,
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_SKIP_REMOVED' as const,
        occurredAt: Date.now() - age * DAY,
      })),
    );
  const remaining = async () =>
    (await db.kysely.selectFrom('account_events').select('external_account_number').execute()).map(
      (row) => row.external_account_number,
    );

  it('deletes the events older than the days given, in batches', async () => {
    await eventsAged([40, 31, 29, 35, 1, 50, 0]);
    expect(await pruneEvents(db.kysely, Date.now() - 30 * DAY, 2)).toBe(4);
    expect((await remaining()).sort()).toEqual(['R-2', 'R-4', 'R-6']);
    expect(await pruneOlderThan(db, 30)).toBe(0);
  });

  it('keeps the newest event however old, so that its id is never given again', async () => {
    await db.kysely.deleteFrom('account_events').execute();
    await eventsAged([90, 80]);
    expect(await pruneOlderThan(db, 10)).toBe(1);
    expect(await remaining()).toEqual(['R-1']);
  });

  it('is run by `account-import events prune --older-than DAYS`', async () => {
    await db.kysely.deleteFrom('account_events').execute();
    await eventsAged([5, 4, 3, 0]);
    const pruned = await runCli({ DATABASE_URL: url }, 'events', 'prune', '--older-than', '2');
    expect(pruned).toMatchObject({ code: 0, stdout: 'deleted 3 events older than 2 days\n' });
    const again = await runCli(
      { DATABASE_URL: url },
      'events',
      'prune',
      '--older-than',
      '2',
      '--json',
    );
    expect(json(again.stdout)).toEqual({ deleted: 0, older_than_days: 2 });
    const refused = await runCli({ DATABASE_URL: url }, 'events', 'prune', '--older-than', '-1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('invalid number of days "-1"');
    expect(await remaining()).toEqual(['R-3']);
  });
});

it('reads DAYS as a whole number from 0 to 36500', () => {
  expect(retentionDays(' 30 ')).toBe(30);
  expect(retentionDays('0')).toBe(0);
  for (const bad of ['', '1.5', '-1', '36501', 'ten', '1e3']) {
    expect(() => retentionDays(bad), bad).toThrow(OperatorError);
  }
});
