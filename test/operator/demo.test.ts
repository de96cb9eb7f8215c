import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseApiKey, verifyApiKeySecret } from '../../src/auth/api-keys.js';
import { loadConfig } from '../../src/config.js';
import type { Db, Dialect } from '../../src/db/database.js';
import { demoInstructions, seedDemoIfEmpty, type DemoSeed } from '../../src/operator/demo.js';
import { addTeam } from '../../src/operator/teams.service.js';
import { DEMO_REFERENCE } from '../../src/reference/reference.demo.js';
import { importReference, listReference } from '../../src/reference/reference.service.js';
import { readReferenceVersion } from '../../src/reference/reference.loader.js';
import { describeEachDialect, openTestDb } from '../helpers/databases.js';

const development = loadConfig({});
const production = loadConfig({ NODE_ENV: 'production' });

/** Runs the test body on a fresh migrated database and always drops it. */
async function withFreshDb(dialect: Dialect, body: (db: Db) => Promise<void>): Promise<void> {
  const { db, destroy } = await openTestDb(dialect);
  try {
    await body(db);
  } finally {
    await destroy();
  }
}

/** Organisations, suppliers, teams and reference entries. */
async function counts(db: Db): Promise<number[]> {
  const count = async (table: 'organisations' | 'import_suppliers' | 'operations_teams') =>
    (await db.kysely.selectFrom(table).select('id').execute()).length;
  return [
    await count('organisations'),
    await count('import_suppliers'),
    await count('operations_teams'),
    (await listReference(db)).length,
  ];
}

const DEMO_ENTRIES = DEMO_REFERENCE.length;

await describeEachDialect('operator: demo seed', (dialect) => {
  it('seeds organisation, supplier, team and grant on an empty development database', () =>
    withFreshDb(dialect, async (db) => {
      const seed = await seedDemoIfEmpty(db, development);
      expect(seed).toMatchObject({
        organisation: 'demo',
        supplier: 'DEMO',
        team: 'Migrations',
        referenceEntries: DEMO_ENTRIES,
      });
      const org = await db.kysely.selectFrom('organisations').selectAll().executeTakeFirstOrThrow();
      expect(org).toMatchObject({ name: 'demo', enabled: 1, key_version: 1 });
      const parsed = parseApiKey(seed?.apiKey ?? '');
      expect(parsed?.keyId).toBe(org.key_id);
      expect(verifyApiKeySecret(parsed?.secret ?? '', org.key_hash)).toBe(true);
      const supplier = await db.kysely
        .selectFrom('import_suppliers')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(supplier).toMatchObject({
        code: 'DEMO',
        status: 'Ongoing',
        document_root: '/demo',
        customer_emails: 0,
        phone_region: 'GB',
      });
      const grants = await db.kysely.selectFrom('organisation_suppliers').selectAll().execute();
      expect(grants.map((g) => [Number(g.organisation_id), Number(g.supplier_id)])).toEqual([
        [Number(org.id), Number(supplier.id)],
      ]);
      expect(await counts(db)).toEqual([1, 1, 1, DEMO_ENTRIES]);
      const tariffs = await listReference(db, 'tariff');
      expect(tariffs.map((entry) => entry.code)).toContain('E-1R-VAR-22-11-01-C');
    }));

  it('does not seed twice', () =>
    withFreshDb(dialect, async (db) => {
      expect(await seedDemoIfEmpty(db, development)).toBeDefined();
      const version = await readReferenceVersion(db);
      expect(await seedDemoIfEmpty(db, development)).toBeUndefined();
      expect(await counts(db)).toEqual([1, 1, 1, DEMO_ENTRIES]);
      expect(await readReferenceVersion(db)).toBe(version);
    }));

  it('does not seed in production', () =>
    withFreshDb(dialect, async (db) => {
      expect(await seedDemoIfEmpty(db, production)).toBeUndefined();
      expect(await counts(db)).toEqual([0, 0, 0, 0]);
    }));

  it('seeds each part only while it is empty: operator data, reference data', () =>
    withFreshDb(dialect, async (db) => {
      await addTeam(db, 'Existing');
      expect(await seedDemoIfEmpty(db, development)).toBeUndefined();
      expect(await counts(db)).toEqual([0, 0, 1, DEMO_ENTRIES]);
    }));

  it('leaves reference data the operator imported as it is', () =>
    withFreshDb(dialect, async (db) => {
      await importReference(db, [{ line: 1, value: { kind: 'tpr', code: '00001' } }]);
      const seed = await seedDemoIfEmpty(db, development);
      expect(seed?.referenceEntries).toBe(0);
      expect(await counts(db)).toEqual([1, 1, 1, 1]);
    }));
});

describe('demoInstructions', () => {
  const seed: DemoSeed = {
    apiKey: 'aik_ABCDEFGHIJKL_secret-part_xyz',
    organisation: 'demo',
    supplier: 'DEMO',
    team: 'Migrations',
    referenceEntries: 60,
  };
  const text = demoInstructions(seed, 'http://127.0.0.1:8000/');
  const bodies = [...text.matchAll(/-d '([^']+)'/g)].map((m) => JSON.parse(m[1] ?? '') as unknown);

  it('shows the key and both endpoints without a doubled slash', () => {
    expect(text).toContain(seed.apiKey);
    expect(text).toContain('reference     60 entries of the demo catalogue');
    expect(demoInstructions({ ...seed, referenceEntries: 0 }, 'http://x')).not.toContain(
      'reference ',
    );
    expect(text).toContain("'http://127.0.0.1:8000/v1/graphql/'");
    expect(text).toContain("'http://127.0.0.1:8000/v1/data-import/validate-account/'");
    expect(text).toContain('-H "Authorization: Token $TOKEN"');
  });

  it('sends the obtainToken mutation with the key as a variable', () => {
    expect(bodies[0]).toEqual({
      query:
        'mutation($k:String!){obtainToken(input:{apiKey:$k}){token refreshToken refreshExpiresIn}}',
      variables: { k: seed.apiKey },
    });
  });

  it('validates a tiny account of the demo supplier', () => {
    expect(bodies[1]).toMatchObject({ import_supplier: 'DEMO', customers: [{}] });
  });

  it('captures the token with a node one-liner (no jq needed)', () => {
    const script = /\| node -e '([^']+)'/.exec(text)?.[1];
    expect(script).toBeDefined();
    const answer = { data: { obtainToken: { token: 'tok-123', refreshToken: 'r' } } };
    const run = spawnSync(process.execPath, ['-e', script ?? ''], {
      input: JSON.stringify(answer),
      encoding: 'utf8',
    });
    expect(run.stdout.trim()).toBe('tok-123');
  });
});
