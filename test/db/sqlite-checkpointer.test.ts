/**
 * The SQLite checkpointer's worker (src/db/sqlite-checkpointer.ts) is stopped when the database
 * closes; stopping one that already ended must not wait for an exit that has come and gone.
 * (SQLite only: PostgreSQL has no checkpointer of ours.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/db/sqlite-checkpointer.js';

const dir = mkdtempSync(join(tmpdir(), 'checkpointer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite checkpointer', () => {
  it('stops, and stopping it again returns at once', async () => {
    const path = join(dir, 'db.sqlite');
    const database = new SQLite(path);
    database.pragma('journal_mode = WAL');
    database.close();
    const checkpointer = startCheckpointer(path);
    await expect(checkpointer.stop()).resolves.toBeUndefined();
    await expect(checkpointer.stop()).resolves.toBeUndefined();
  });

  it('stops when its worker failed to open the database', async () => {
    const checkpointer = startCheckpointer(join(dir, 'missing', 'db.sqlite'));
    await expect(checkpointer.stop()).resolves.toBeUndefined();
    await expect(checkpointer.stop()).resolves.toBeUndefined();
  });
});
