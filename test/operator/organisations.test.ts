import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKey, verifyApiKeySecret } from '../../src/auth/api-keys.js';
import type { Db } from '../../src/db/database.js';
import { sql } from 'kysely';
import { OperatorError } from '../../src/shared/operator-error.js';
import {
  addOrganisation,
  disableOrganisation,
  enableOrganisation,
  getOrganisation,
  grantSupplier,
  listOrganisations,
  revokeSupplier,
  rotateOrganisationKey,
} from '../../src/operator/organisations.service.js';
import { addSupplier } from '../../src/operator/suppliers.service.js';
import { sqlitePath } from '../../src/db/connect.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';
import { until } from '../helpers/until.js';

/**
 * Another process committing to the database as fast as it can (a service staging accounts,
 * say), each commit a row of a table of its own; `ticks` counts its commits so far.
 */
function startWriter(url: string) {
  const path = sqlitePath(url);
  const source =
    path === undefined
      ? `const pg = require('pg');
         const client = new pg.Client({ connectionString: process.argv[1] });
         (async () => {
           await client.connect();
           await client.query('create table writer_ticks (n serial primary key)');
           for (;;) await client.query('insert into writer_ticks default values');
         })();`
      : `const db = new (require('better-sqlite3'))(process.argv[1]);
         db.pragma('busy_timeout = 5000');
         db.exec('create table writer_ticks (n integer primary key)');
         const tick = db.prepare('insert into writer_ticks default values');
         for (;;) tick.run();`;
  const child = spawn(process.execPath, ['-e', source, path ?? url], { stdio: 'ignore' });
  return {
    ticks: async (db: Db) => {
      const { rows } = await sql<{ n: number }>`select count(*) as n from writer_ticks`
        .execute(db.kysely)
        .catch(() => ({ rows: [{ n: 0 }] }));
      return Number(rows[0]?.n ?? 0);
    },
    stop: async () => {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}

await describeEachDialect('operator: organisations', (dialect) => {
  let db: Db;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, destroy } = await openTestDb(dialect));
    for (const code of ['S1', 'S2', 'S3']) await addSupplier(db, code);
  });
  afterAll(() => destroy());

  const row = (name: string) =>
    db.kysely
      .selectFrom('organisations')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirstOrThrow();

  /** True when the stored hash belongs to this key: the key itself is never stored. */
  async function keyMatches(name: string, apiKey: string): Promise<boolean> {
    const stored = await row(name);
    const parsed = parseApiKey(apiKey);
    return parsed?.keyId === stored.key_id && verifyApiKeySecret(parsed.secret, stored.key_hash);
  }

  describe('add', () => {
    it('creates an enabled organisation with its grants and returns the key once', async () => {
      const added = await addOrganisation(db, ' acme ', ['S2', 'S1', 'S2']);
      expect(added).toMatchObject({ name: 'acme', keyVersion: 1, suppliers: ['S1', 'S2'] });
      const stored = await row('acme');
      expect(stored).toMatchObject({ enabled: 1, key_version: 1 });
      expect(JSON.stringify(stored)).not.toContain(added.apiKey);
      expect(await keyMatches('acme', added.apiKey)).toBe(true);
      expect((await getOrganisation(db, 'acme')).suppliers).toEqual(['S1', 'S2']);
    });

    it('refuses a duplicate name', async () => {
      await expect(addOrganisation(db, 'acme')).rejects.toThrow(OperatorError);
      await expect(addOrganisation(db, 'acme')).rejects.toThrow(
        'organisation "acme" already exists',
      );
    });

    it('refuses an unknown supplier and creates nothing', async () => {
      await expect(addOrganisation(db, 'ghost', ['S1', 'NOPE'])).rejects.toThrow(
        'import supplier "NOPE" does not exist',
      );
      await expect(getOrganisation(db, 'ghost')).rejects.toThrow(/does not exist/);
    });

    it.each(['  ', 'acme\nbeta', 'acme\u0000'])('refuses the name %j', (name) =>
      expect(addOrganisation(db, name)).rejects.toThrow(/invalid organisation name/),
    );
  });

  describe('grant and revoke', () => {
    it('grants and revokes a supplier', async () => {
      expect((await grantSupplier(db, 'acme', 'S3')).suppliers).toEqual(['S1', 'S2', 'S3']);
      expect((await revokeSupplier(db, 'acme', 'S1')).suppliers).toEqual(['S2', 'S3']);
    });

    it('refuses to grant twice or revoke what is not granted', async () => {
      await expect(grantSupplier(db, 'acme', 'S3')).rejects.toThrow(/already has access/);
      await expect(revokeSupplier(db, 'acme', 'S1')).rejects.toThrow(/has no access/);
    });

    it('refuses an unknown organisation or supplier', async () => {
      await expect(grantSupplier(db, 'nobody', 'S1')).rejects.toThrow(
        'organisation "nobody" does not exist',
      );
      await expect(grantSupplier(db, 'acme', 'NOPE')).rejects.toThrow(
        'import supplier "NOPE" does not exist',
      );
      await expect(revokeSupplier(db, 'nobody', 'S1')).rejects.toThrow(/does not exist/);
      await expect(revokeSupplier(db, 'acme', 'NOPE')).rejects.toThrow(/does not exist/);
    });
  });

  describe('rotate-key', () => {
    it('issues a new key and bumps key_version so old tokens stop working', async () => {
      const { apiKey: oldKey } = await addOrganisation(db, 'rotor');
      const before = await row('rotor');
      const rotated = await rotateOrganisationKey(db, 'rotor');
      const after = await row('rotor');
      expect(rotated).toMatchObject({ name: 'rotor', keyVersion: 2 });
      expect(rotated.apiKey).not.toBe(oldKey);
      expect(after.key_version).toBe(before.key_version + 1);
      expect(after.key_id).not.toBe(before.key_id);
      expect(after.key_hash).not.toBe(before.key_hash);
      expect(await keyMatches('rotor', rotated.apiKey)).toBe(true);
      expect(await keyMatches('rotor', oldKey)).toBe(false);
      expect((await rotateOrganisationKey(db, 'rotor')).keyVersion).toBe(3);
    });

    it('refuses an unknown organisation', () =>
      expect(rotateOrganisationKey(db, 'nobody')).rejects.toThrow(/does not exist/));
  });

  describe('disable and enable', () => {
    it('sets enabled to 0 and back to 1, and may be repeated', async () => {
      expect((await disableOrganisation(db, 'acme')).enabled).toBe(false);
      expect((await row('acme')).enabled).toBe(0);
      expect((await disableOrganisation(db, 'acme')).enabled).toBe(false);
      expect((await enableOrganisation(db, 'acme')).enabled).toBe(true);
      expect((await row('acme')).enabled).toBe(1);
    });

    it('refuses an unknown organisation', async () => {
      await expect(disableOrganisation(db, 'nobody')).rejects.toThrow(/does not exist/);
      await expect(enableOrganisation(db, 'nobody')).rejects.toThrow(/does not exist/);
    });
  });

  it('lists organisations by name with state and granted suppliers', async () => {
    await disableOrganisation(db, 'rotor');
    const listed = await listOrganisations(db);
    expect(listed.map((o) => [o.name, o.enabled, o.suppliers, o.keyVersion])).toEqual([
      ['acme', true, ['S2', 'S3'], 1],
      ['rotor', false, [], 3],
    ]);
    expect(listed[0]?.keyId).toBe((await row('acme')).key_id);
  });
});

await describeEachDialect('operator: organisations beside a busy database', (dialect) => {
  let db: Db;
  let url: string;
  let destroy: () => Promise<void>;
  beforeAll(async () => {
    ({ db, url, destroy } = await openTestDb(dialect));
    await addSupplier(db, 'S1');
  });
  afterAll(() => destroy());

  it('adds organisations with grants while another process keeps committing', async () => {
    const writer = startWriter(url);
    try {
      let ticks = 0;
      for (let i = 0; i < 20; i++) {
        // The writer has committed since the last call: it is still at it, in its tight loop.
        const last = ticks;
        await until(async () => (ticks = await writer.ticks(db)) > last);
        // Each reads the supplier, then writes: on SQLite a commit between the two used to
        // fail the write with "database is locked".
        expect((await addOrganisation(db, `busy-${i}`, ['S1'])).suppliers).toEqual(['S1']);
      }
    } finally {
      await writer.stop();
    }
    expect((await listOrganisations(db)).filter((o) => o.name.startsWith('busy-'))).toHaveLength(
      20,
    );
  });
});
