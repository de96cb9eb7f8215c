/**
 * Group commit is SQLite's (PostgreSQL stages in one statement on a pooled connection, which
 * has nothing to share), so this suite runs on SQLite only.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledInsert, compiledQuery, type Params } from '../../src/db/compiled.js';
import { connect, sqlitePath } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { groupCommit } from '../../src/db/group-commit.js';
import { openTestDb } from '../helpers/databases.js';
import { gate } from '../helpers/gate.js';

const teamInsert = compiledInsert('operations_teams', ['name', 'created_at'], ['id']);

const teamsBetween = compiledQuery((db, { from, to }: Params<{ from: string; to: string }>) =>
  db
    .selectFrom('operations_teams')
    .select('name')
    .where('name', '>=', from)
    .where('name', '<', to)
    .orderBy('name'),
);

describe('group commit [sqlite]', () => {
  let db: Db;
  let url: string;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, url, destroy } = await openTestDb('sqlite'));
  });
  afterAll(() => destroy());

  const names = async (prefix: string) =>
    (await teamsBetween(db.kysely, { from: prefix, to: `${prefix}~` })).rows.map((row) => row.name);

  it('keeps every write of a batch but the one that failed', async () => {
    const write = (name: string, fail = false) =>
      groupCommit(db.kysely, async (executor) => {
        await teamInsert(executor, [{ name, created_at: 1 }]);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([
      write('batch-a'),
      write('batch-b', true),
      write('batch-c'),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual([
      'batch-a',
      'Error: batch-b failed',
      'batch-c',
    ]);
    expect(await names('batch-')).toEqual(['batch-a', 'batch-c']);
  });

  it('answers a write only once its batch has committed', async () => {
    const other = connect(url);
    try {
      await groupCommit(db.kysely, (executor) =>
        teamInsert(executor, [{ name: 'answered-a', created_at: 1 }]),
      );
      // Another connection sees only committed data.
      const seen = await teamsBetween(other.kysely, { from: 'answered-', to: 'answered-~' });
      expect(seen.rows).toEqual([{ name: 'answered-a' }]);
    } finally {
      await other.close();
    }
  });

  it('keeps readers out of an open batch', async () => {
    const inserted = gate();
    const failing = gate();
    const write = groupCommit(db.kysely, async (executor) => {
      await teamInsert(executor, [{ name: 'unseen-a', created_at: 1 }]);
      inserted.open();
      await failing.opened;
      throw new Error('rolled back');
    });
    await inserted.opened;
    // Issued while the batch holds the connection: it waits, and never sees the row.
    const seen = names('unseen-');
    failing.open();
    await expect(write).rejects.toThrow('rolled back');
    expect(await seen).toEqual([]);
  });

  /**
   * Starts `writes` while another connection holds the write lock, lets the event loop turn 20
   * times (a busy wait inside SQLite would hold it until the writes failed as busy), then
   * releases the lock and waits for the writes.
   */
  async function whileLockedElsewhere(writes: () => Promise<unknown>): Promise<void> {
    const other = new SQLite(sqlitePath(url) as string);
    try {
      other.exec('begin immediate');
      const written = writes();
      for (let turn = 0; turn < 20; turn++) await new Promise(setImmediate);
      other.exec('commit');
      await written;
    } finally {
      other.close();
    }
  }

  it("waits for another connection's write lock without blocking the event loop", async () => {
    await whileLockedElsewhere(() =>
      groupCommit(db.kysely, (executor) =>
        teamInsert(executor, [{ name: 'locked-a', created_at: 1 }]),
      ),
    );
    expect(await names('locked-')).toEqual(['locked-a']);
  });

  it('keeps other statements waiting while a batch waits for the write lock', async () => {
    await whileLockedElsewhere(async () => {
      const grouped = groupCommit(db.kysely, (executor) =>
        teamInsert(executor, [{ name: 'queued-a', created_at: 1 }]),
      );
      await new Promise(setImmediate);
      // Not grouped: it must wait its turn, not run at once while the lock is elsewhere.
      const alone = teamInsert(db.kysely, [{ name: 'queued-b', created_at: 1 }]);
      await Promise.all([grouped, alone]);
    });
    expect(await names('queued-')).toEqual(['queued-a', 'queued-b']);
  });

  it('commits nothing of a batch holding a write it could not undo', async () => {
    const before = groupCommit(db.kysely, async (executor) => {
      await teamInsert(executor, [{ name: 'undone-a', created_at: 1 }]);
    });
    const stuck = groupCommit(db.kysely, async (executor) => {
      await teamInsert(executor, [{ name: 'undone-b', created_at: 1 }]);
      // Its savepoint gone, the failed write cannot be rolled back on its own.
      await sql`release grouped`.execute(executor);
      throw new Error('stuck');
    });
    const results = await Promise.allSettled([before, stuck]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await names('undone-')).toEqual([]);
  });

  it('fails the whole batch when SQLite ended its transaction', async () => {
    const before = groupCommit(db.kysely, async (executor) => {
      await teamInsert(executor, [{ name: 'ended-a', created_at: 1 }]);
    });
    const ending = groupCommit(db.kysely, async (executor) => {
      await teamInsert(executor, [{ name: 'ended-b', created_at: 1 }]);
      // As SQLite does itself after some errors (a full disk, say).
      await sql`rollback`.execute(executor);
      throw new Error('ended');
    });
    let ranAfter = false;
    const after = groupCommit(db.kysely, async (executor) => {
      ranAfter = true;
      await teamInsert(executor, [{ name: 'ended-c', created_at: 1 }]);
    });
    const results = await Promise.allSettled([before, ending, after]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ranAfter).toBe(false);
    expect(await names('ended-')).toEqual([]);
    // The next batch works as usual.
    await groupCommit(db.kysely, (executor) =>
      teamInsert(executor, [{ name: 'ended-d', created_at: 1 }]),
    );
    expect(await names('ended-')).toEqual(['ended-d']);
  });
});
