/**
 * Promise 9: one organisation does not slow the others. Organisation B sends the error
 * amplification body (90,000 unknown keys, at the top and inside meter_points[0]) to
 * validate-account in a loop and reads the unpaged list of a 20,000-account supplier on 16
 * connections at once, honouring Retry-After; meanwhile organisation A makes its ordinary
 * status and list-page calls. Asserted: A's p99 under that load within 3x its unloaded p99 (A
 * alone, before and after), every answer to A a 200, B answered only 200, 400 or 429, every
 * 429 with Retry-After.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { createOrganisation } from '../helpers/auth.js';
import { buildAccount, buildSupplyAddress } from '../payload/factory.js';
import { stageMany } from '../helpers/staging.js';
import { Client, obtainTokenOver, percentile, type Outcome } from './harness/client.js';
import { SUPPLIER, createFaultsDatabase, type FaultsDatabase } from './harness/fixture.js';
import { ServiceProcess, freePort } from './harness/service.js';

const BULK_SUPPLIER = 'BULK';
const BULK_ACCOUNTS = 20_000;
const A_ACCOUNTS = 200;
const LIST_STREAMS = 16;
/** A's requests per phase (two clients), and the longest the loaded phase may last. */
const A_REQUESTS = 600;
const LOADED_WITHIN_MS = 60_000;
const BASE = '/v1/data-import';

const unknownKeys = (count: number) =>
  `{${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}}`;

/** The two error amplification bodies of the report: 90,000 unknown keys, top and nested. */
function amplificationBodies(): string[] {
  const keys = unknownKeys(90_000);
  const account = buildAccount({
    import_supplier: BULK_SUPPLIER,
    supply_addresses: [buildSupplyAddress({ meter_points: ['@@'] })],
  });
  return [keys, JSON.stringify(account).replace('"@@"', keys)];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seconds of a 429's Retry-After, or undefined when it has none. */
function retryAfter(outcome: Outcome): number | undefined {
  if (outcome.kind !== 'reply' || outcome.status !== 429) return undefined;
  const value = Number(outcome.headers['retry-after']);
  return Number.isFinite(value) ? value : undefined;
}

await describeEachDialect('one organisation does not slow another', (dialect) => {
  let database: FaultsDatabase;
  let service: ServiceProcess | undefined;
  let tokenB = '';
  beforeAll(async () => {
    database = await createFaultsDatabase(dialect);
    const db = database.open();
    try {
      const acme = await db.kysely
        .selectFrom('organisations')
        .select('id')
        .where('name', '=', 'acme')
        .executeTakeFirstOrThrow();
      await stageMany(db, Number(acme.id), SUPPLIER, 'A', A_ACCOUNTS);
      const bulk = await createOrganisation(db, 'bulk', [BULK_SUPPLIER]);
      tokenB = bulk.apiKey;
      await stageMany(db, bulk.id, BULK_SUPPLIER, 'B', BULK_ACCOUNTS);
    } finally {
      await db.close();
    }
  });
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database.destroy();
  });

  it('keeps A within 3x its unloaded p99 while B floods validate and unpaged lists', async () => {
    service = await ServiceProcess.start({ databaseUrl: database.url, port: await freePort() });
    const a = new Client(service.url, { connections: 2 });
    a.token = await obtainTokenOver(a, database.apiKey);
    const b = new Client(service.url, { connections: LIST_STREAMS + 4, timeoutMs: 30_000 });
    b.token = await obtainTokenOver(b, tokenB);

    const aOutcomes: Outcome[] = [];
    let aCalls = 0;
    /** A's ordinary calls: the status of one of its accounts, then a page of its list. */
    const aClient = async (count: number, until: () => boolean, record: boolean) => {
      for (let i = 0; i < count && !until(); i++) {
        const n = aCalls++;
        const path =
          n % 2 === 0
            ? `${BASE}/account-transfer-status/${SUPPLIER}/A-${n % A_ACCOUNTS}/`
            : `${BASE}/pending-account-import-processes/${SUPPLIER}/?limit=20`;
        const outcome = await a.send('GET', path);
        if (record) aOutcomes.push(outcome);
      }
    };
    const aPhase = async (until: () => boolean = () => false) => {
      const from = aOutcomes.length;
      await Promise.all([
        aClient(A_REQUESTS / 2, until, true),
        aClient(A_REQUESTS / 2, until, true),
      ]);
      return aOutcomes.slice(from);
    };
    const p99 = (outcomes: Outcome[]) =>
      percentile(
        outcomes.map((o) => o.ms),
        99,
      );
    const p50 = (outcomes: Outcome[]) =>
      percentile(
        outcomes.map((o) => o.ms),
        50,
      );

    await aClient(200, () => false, false); // warm-up
    const before = await aPhase();

    // B's flood: the amplification bodies in a loop, and LIST_STREAMS unpaged lists at once.
    let stopping = false;
    const bOutcomes: Outcome[] = [];
    const bLoop = async (send: () => Promise<Outcome>) => {
      while (!stopping) {
        const outcome = await send();
        bOutcomes.push(outcome);
        const wait = retryAfter(outcome);
        if (wait !== undefined) await pause(wait * 1000);
        else if (outcome.kind === 'failure') await pause(50);
      }
    };
    const bodies = amplificationBodies();
    const validatePath = `${BASE}/validate-account/`;
    const listPath = `${BASE}/all-account-import-processes/${BULK_SUPPLIER}/`;
    const flood = [
      ...bodies.map((body) =>
        bLoop(() =>
          b.send('POST', validatePath, undefined, {
            raw: body,
            headers: { 'content-type': 'application/json' },
          }),
        ),
      ),
      ...Array.from({ length: LIST_STREAMS }, () => bLoop(() => b.send('GET', listPath))),
    ];
    // Let the flood reach full strength before A measures.
    while (bOutcomes.length < 4) await pause(50);
    const loadedStarted = Date.now();
    const loaded = await aPhase(() => Date.now() - loadedStarted > LOADED_WITHIN_MS);
    stopping = true;
    await Promise.all(flood);

    const after = await aPhase();
    await Promise.all([a.close(), b.close()]);

    const unloadedP99 = (p99(before) + p99(after)) / 2;
    const loadedP99 = p99(loaded);
    const bByStatus = new Map<string, number>();
    for (const o of bOutcomes) {
      const key = o.kind === 'reply' ? String(o.status) : o.code;
      bByStatus.set(key, (bByStatus.get(key) ?? 0) + 1);
    }
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      [
        `[fairness ${dialect}] A alone p99 ${ms(unloadedP99)} (before ${ms(p99(before))},`,
        `after ${ms(p99(after))}; p50 ${ms(p50(before))});`,
        `A during B's flood: ${loaded.length} requests, p50 ${ms(p50(loaded))},`,
        `p99 ${ms(loadedP99)} (${(loadedP99 / unloadedP99).toFixed(2)}x), max`,
        `${ms(Math.max(...loaded.map((o) => o.ms)))};`,
        `B: ${bOutcomes.length} answers ${JSON.stringify(Object.fromEntries(bByStatus))}`,
      ].join(' '),
    );

    const aStatuses = new Set(aOutcomes.map((o) => (o.kind === 'reply' ? o.status : o.code)));
    expect([...aStatuses]).toEqual([200]);
    expect(loaded.length).toBe(A_REQUESTS);
    for (const o of bOutcomes) {
      expect(o.kind === 'reply' && [200, 400, 429].includes(o.status)).toBe(true);
      if (o.kind === 'reply' && o.status === 429) expect(retryAfter(o)).toBeGreaterThan(0);
    }
    // B's flood did reach the service: lists were streamed and the bodies refused.
    expect(bByStatus.get('200')).toBeGreaterThan(0);
    expect(bByStatus.get('400')).toBeGreaterThan(0);
    // The promise.
    expect(loadedP99).toBeLessThanOrEqual(3 * unloadedP99);
  });
});
