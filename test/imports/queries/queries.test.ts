import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/databases.js';
import {
  changeOrganisation,
  createOrganisation,
  obtainToken,
  uniqueName,
} from '../../helpers/auth.js';
import {
  PATHS,
  addGrantedSupplier,
  createTestService,
  useTestService,
  listPages,
  processDemoAccount,
  type TestService,
} from '../../helpers/app.js';
import { buildAccount } from '../../account/factory.js';
import { encodeCursor } from '../../../src/imports/queries/lists.service.js';

interface Item {
  external_account_number: string;
  service_account_number: string | null;
  account_created_at: string | null;
}

/** A process row written directly: pending, or completed when given its account's number and time. */
function processRow(
  supplierId: number,
  external: string,
  firstStagedAt: number,
  account?: { number: string; createdAt: number },
) {
  return {
    supplier_id: supplierId,
    external_account_number: external,
    state: account ? ('completed' as const) : ('pending' as const),
    version: 1,
    first_staged_at: firstStagedAt,
    last_staged_at: 1_700_000_000_000,
    service_account_number: account?.number ?? null,
    account_created_at: account?.createdAt ?? null,
  };
}

await describeEachDialect('status and lists', (dialect) => {
  let service: TestService;
  const created: Record<string, string> = {};
  const externals = ['Q-05', 'Q-01', 'Q-04', 'Q-02', 'Q-03'];

  beforeAll(async () => {
    service = await createTestService(dialect);
    for (const external of externals) {
      const response = await service.request({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ external_account_number: external }),
      });
      expect(response.statusCode).toBe(201);
    }
    // Several stages can share a millisecond; spread them so the order under test is staging order.
    for (const [i, external] of externals.entries()) {
      await service.db.kysely
        .updateTable('import_processes')
        .set({ first_staged_at: 1_700_000_000_000 + i * 1000 })
        .where('external_account_number', '=', external)
        .execute();
    }
    for (const external of ['Q-04', 'Q-02']) {
      const response = await processDemoAccount(service, external);
      expect(response.statusCode).toBe(201);
      created[external] = response.json().service_account_number;
    }
  });
  afterAll(() => service.destroy());

  const get = (url: string) => service.request({ method: 'GET', url });

  /** Processes for these numbers, staged a millisecond apart in this order. */
  const insertStagedInOrder = (
    supplierId: number,
    numbers: string[],
    accountOf: (i: number) => { number: string; createdAt: number } | undefined,
  ) =>
    service.db.kysely
      .insertInto('import_processes')
      .values(
        numbers.map((external, i) =>
          processRow(supplierId, external, 1_700_000_000_000 + i, accountOf(i)),
        ),
      )
      .execute();

  it('reports UNKNOWN with an empty number for a staged account', async () => {
    const response = await get(PATHS.status('DEMO', 'Q-01'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      import_supplier: 'DEMO',
      external_account_number: 'Q-01',
      status: 'UNKNOWN',
      service_account_number: '',
    });
  });

  it('reports COMPLETED with the number, with and without the trailing slash', async () => {
    for (const url of [
      PATHS.status('DEMO', 'Q-04'),
      PATHS.status('DEMO', 'Q-04').replace(/\/$/, ''),
    ]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        import_supplier: 'DEMO',
        external_account_number: 'Q-04',
        status: 'COMPLETED',
        service_account_number: created['Q-04'],
      });
    }
  });

  it('answers 404 for an account never staged and for a supplier not granted', async () => {
    const never = await get(PATHS.status('DEMO', 'NOPE'));
    expect(never.statusCode).toBe(404);
    expect(never.json().code).toBe('import_process_does_not_exist');
    for (const supplier of ['OTHER', 'MISSING']) {
      const response = await get(PATHS.status(supplier, 'Q-01'));
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('import_supplier_not_found');
    }
  });

  it('lists all in staging order with nulls for pending accounts', async () => {
    const response = await get(PATHS.all('DEMO'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const items: Item[] = response.json();
    expect(items.map((i) => i.external_account_number)).toEqual(externals);
    for (const item of items) {
      if (created[item.external_account_number]) {
        expect(item.service_account_number).toBe(created[item.external_account_number]);
        expect(item.account_created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      } else {
        expect(item).toEqual({
          external_account_number: item.external_account_number,
          service_account_number: null,
          account_created_at: null,
        });
      }
    }
  });

  it('lists pending and imported accounts apart', async () => {
    const pending: Item[] = (await get(PATHS.pending('DEMO'))).json();
    expect(pending.map((i) => i.external_account_number)).toEqual(['Q-05', 'Q-01', 'Q-03']);
    expect(
      pending.every((i) => i.service_account_number === null && i.account_created_at === null),
    ).toBe(true);
    const imported: Item[] = (await get(PATHS.imported('DEMO'))).json();
    expect(imported.map((i) => i.external_account_number)).toEqual(['Q-04', 'Q-02']);
    expect(
      imported.every((i) => i.service_account_number !== null && i.account_created_at !== null),
    ).toBe(true);
  });

  it('pages with limit and after, linking the next page until the end', async () => {
    const pages = await listPages<Item>(service, `${PATHS.all('DEMO')}?limit=2`);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((i) => i.external_account_number)).toEqual(externals);
  });

  it('links no next page when the rows left fill the page exactly', async () => {
    const whole = await get(`${PATHS.all('DEMO')}?limit=5`);
    expect(whole.json()).toHaveLength(5);
    expect(whole.headers.link).toBeUndefined();
    const pages = await listPages<Item>(service, `${PATHS.all('DEMO')}?limit=4`);
    expect(pages.map((page) => page.length)).toEqual([4, 1]);
  });

  it('breaks ties of staging time by external account number', async () => {
    await service.db.kysely
      .updateTable('import_processes')
      .set({ first_staged_at: 1_700_000_000_000 })
      .where('external_account_number', 'in', ['Q-01', 'Q-05'])
      .execute();
    const items: Item[] = (await get(PATHS.all('DEMO'))).json();
    expect(items.map((i) => i.external_account_number).slice(0, 2)).toEqual(['Q-01', 'Q-05']);
    await service.db.kysely
      .updateTable('import_processes')
      .set({ first_staged_at: 1_700_000_001_000 })
      .where('external_account_number', '=', 'Q-01')
      .execute();
  });

  it('answers an empty list with 200 []', async () => {
    await addGrantedSupplier(service, 'EMPTY');
    for (const url of [
      PATHS.all('EMPTY'),
      PATHS.imported('EMPTY'),
      `${PATHS.pending('EMPTY')}?limit=5`,
    ]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(response.headers.link).toBeUndefined();
    }
  });

  it('refuses bad paging parameters in the error format', async () => {
    for (const [query, attr, code] of [
      ['limit=0', 'limit', 'min_value'],
      ['limit=-1', 'limit', 'min_value'],
      ['limit=1.5', 'limit', 'invalid_type'],
      ['limit=5000', 'limit', 'max_value'],
      ['limit=99999999', 'limit', 'max_value'],
      [`limit=${'9'.repeat(400)}`, 'limit', 'max_value'],
      ['limit=-99999999', 'limit', 'min_value'],
      ['limit=abc', 'limit', 'invalid_type'],
      ['limit=1e3', 'limit', 'invalid_type'],
      ['after=not-a-cursor', 'after', 'invalid_cursor'],
      [
        `after=${Buffer.from(JSON.stringify([1, 'a\u0000b'])).toString('base64url')}`,
        'after',
        'invalid_cursor',
      ],
      ...['!!', '....', '%20', '=', '%3D%3D'].map(
        // A cursor of this service with anything after it (which a lenient decoder would skip).
        (junk) => [`after=${encodeCursor(1, 'a')}${junk}`, 'after', 'invalid_cursor'] as const,
      ),
    ] as const) {
      const response = await get(`${PATHS.all('DEMO')}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'malformed_request',
        errors: [{ attr, code }],
      });
    }
    // The cursor itself is fine.
    expect((await get(`${PATHS.all('DEMO')}?after=${encodeCursor(1, 'a')}`)).statusCode).toBe(200);
  });

  it('reports every bad paging parameter at once, and one given twice as such', async () => {
    const both = await get(`${PATHS.all('DEMO')}?limit=0&after=zzz`);
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({
      code: 'malformed_request',
      detail:
        'limit must be at least 1. The cursor is not a list position of the form this service issues.',
      errors: [
        { attr: 'limit', code: 'min_value', detail: 'limit must be at least 1.' },
        {
          attr: 'after',
          code: 'invalid_cursor',
          detail: 'The cursor is not a list position of the form this service issues.',
        },
      ],
    });
    for (const name of ['limit', 'after']) {
      const twice = await get(`${PATHS.all('DEMO')}?${name}=5&${name}=5`);
      expect(twice.statusCode).toBe(400);
      expect(twice.json().errors).toEqual([
        { attr: name, code: 'invalid_type', detail: `${name} must be given once.` },
      ]);
    }
  });

  it('streams a list longer than one read batch, whole and in order', async () => {
    const supplierId = await addGrantedSupplier(service, 'BIG');
    const count = 4_500;
    // Pairs share a staging time so that ties cross batch boundaries too.
    const rows = Array.from({ length: count }, (_, i) =>
      processRow(
        supplierId,
        `BIG-${String(i).padStart(5, '0')}`,
        1_700_000_000_000 + Math.floor(i / 2),
      ),
    );
    for (let i = 0; i < rows.length; i += 500) {
      await service.db.kysely
        .insertInto('import_processes')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    const expected = rows.map((r) => r.external_account_number);
    const streamed: Item[] = (await get(PATHS.all('BIG'))).json();
    expect(streamed.map((i) => i.external_account_number)).toEqual(expected);
    const paged = await listPages<Item>(service, `${PATHS.pending('BIG')}?limit=1000`);
    expect(paged.flat().map((i) => i.external_account_number)).toEqual(expected);
  });

  it('returns numbers that JSON must escape, and non-ASCII ones, exactly as staged', async () => {
    const supplierId = await addGrantedSupplier(service, 'ODD');
    const numbers = ['ODD-"quoted"', 'ODD-back\\slash', 'ODD-é-ü', 'ODD-😀', "ODD-<&>'", 'ODD-9'];
    await insertStagedInOrder(supplierId, numbers, (i) =>
      i === 1 ? { number: 'A-0000000F', createdAt: 1_700_000_123_456 } : undefined,
    );
    const streamed: Item[] = (await get(PATHS.all('ODD'))).json();
    expect(streamed.map((i) => i.external_account_number)).toEqual(numbers);
    expect(streamed[1]).toEqual({
      external_account_number: 'ODD-back\\slash',
      service_account_number: 'A-0000000F',
      account_created_at: '2023-11-14T22:15:23Z',
    });
    // Pages of one: every cursor is made from one of these numbers.
    const paged = await listPages<Item>(service, `${PATHS.all('ODD')}?limit=1`);
    expect(paged.flat()).toEqual(streamed);
    const imported: Item[] = (await get(`${PATHS.imported('ODD')}?limit=10`)).json();
    expect(imported).toEqual([streamed[1]]);
  });

  // A page's items are written by the database, the whole list's by the service: the same text.
  it('writes a page exactly as the whole list writes its items', async () => {
    const supplierId = await addGrantedSupplier(service, 'SAME');
    const numbers = [
      'SAME-"q"',
      'SAME-b\\s',
      'SAME-\t',
      'SAME-\u0001',
      'SAME-\n\r\b\f',
      'SAME-\u001f\u007f\u2028',
      'SAME-é',
      'SAME-😀',
      'SAME-9',
    ];
    // The last millisecond of a second, and the first: seconds are floored.
    await insertStagedInOrder(supplierId, numbers, (i) =>
      i % 2 === 0 ? { number: `A-0000000${i}`, createdAt: 1_700_000_123_999 + i * 500 } : undefined,
    );
    for (const path of [PATHS.all('SAME'), PATHS.pending('SAME'), PATHS.imported('SAME')]) {
      const whole = (await get(path)).body;
      expect(JSON.parse(whole).length, path).toBeGreaterThan(2);
      for (const limit of [1, 2, 1000]) {
        const texts: string[] = [];
        let next: string | undefined = `${path}?limit=${limit}`;
        while (next) {
          const response = await get(next);
          expect(response.statusCode).toBe(200);
          if (response.body !== '[]') texts.push(response.body.slice(1, -1));
          next = /^<([^>]+)>; rel="next"$/.exec(String(response.headers.link ?? ''))?.[1];
        }
        expect(`[${texts.join(',')}]`, `${path}?limit=${limit}`).toBe(whole);
      }
    }
    const imported: Item[] = (await get(PATHS.imported('SAME'))).json();
    expect(imported.map((i) => i.account_created_at)).toEqual([
      '2023-11-14T22:15:23Z',
      '2023-11-14T22:15:24Z',
      '2023-11-14T22:15:25Z',
      '2023-11-14T22:15:26Z',
      '2023-11-14T22:15:27Z',
    ]);
  });

  it('pages rows stored out of order in staging order, ties by number', async () => {
    const supplierId = await addGrantedSupplier(service, 'MIXED');
    // A fixed shuffle of 60 rows over 20 staging times: insertion order is not list order.
    const rows = Array.from({ length: 60 }, (_, i) => (i * 37) % 60).map((k) =>
      processRow(
        supplierId,
        `MIXED-${String(59 - k).padStart(2, '0')}`,
        1_700_000_000_000 + (k % 20),
        k % 3 === 0
          ? { number: `A-000000${String(k).padStart(2, '0')}`, createdAt: 1_700_000_100_000 }
          : undefined,
      ),
    );
    await service.db.kysely.insertInto('import_processes').values(rows).execute();
    const order = [...rows].sort(
      (a, b) =>
        a.first_staged_at - b.first_staged_at ||
        (a.external_account_number < b.external_account_number ? -1 : 1),
    );
    for (const [path, expected] of [
      [PATHS.all('MIXED'), order],
      [PATHS.pending('MIXED'), order.filter((r) => r.state === 'pending')],
      [PATHS.imported('MIXED'), order.filter((r) => r.state === 'completed')],
    ] as const) {
      // 7 ends pages inside runs of equal staging times; 10 and 20 divide every list exactly.
      for (const limit of [7, 10, 20]) {
        const pages = await listPages<Item>(service, `${path}?limit=${limit}`);
        expect(pages.flat().map((i) => i.external_account_number)).toEqual(
          expected.map((r) => r.external_account_number),
        );
        const sizes = Array.from({ length: Math.ceil(expected.length / limit) }, (_, i) =>
          Math.min(limit, expected.length - i * limit),
        );
        expect(
          pages.map((page) => page.length),
          `${path}?limit=${limit}`,
        ).toEqual(sizes);
      }
    }
  });

  it('answers 404 on lists of a supplier that is not granted', async () => {
    for (const path of [PATHS.all('OTHER'), PATHS.pending('OTHER'), PATHS.imported('OTHER')]) {
      const response = await get(path);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('import_supplier_not_found');
    }
  });
});

// Status and a page are read in the statement that checks the caller, so a caller without the
// right must get 401 or 404, and never a row, from lists that have rows.
await describeEachDialect('status and pages for a caller without the right', (dialect) => {
  const service = useTestService(dialect);
  beforeAll(async () => {
    for (const external of ['R-1', 'R-2']) {
      const staged = await service.request({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ external_account_number: external }),
      });
      expect(staged.statusCode).toBe(201);
    }
    const processed = await processDemoAccount(service, 'R-2');
    expect(processed.statusCode).toBe(201);
  });

  /** Status of a staged account, and pages of lists that each have a row. */
  const reads = (supplier: string) => [
    PATHS.status(supplier, 'R-1'),
    `${PATHS.all(supplier)}?limit=5`,
    `${PATHS.pending(supplier)}?limit=5`,
    `${PATHS.imported(supplier)}?limit=5`,
  ];

  it.each([
    ['disabled', { enabled: 0 }],
    ['with its key rotated', { key_version: 2 }],
  ])('answers 401 to an organisation %s, though the lists have rows', async (_, change) => {
    const { id, apiKey } = await createOrganisation(service.db, uniqueName(), ['DEMO']);
    const { token } = await obtainToken(service.app, apiKey);
    const read = (url: string) =>
      service.app.inject({ method: 'GET', url, headers: { authorization: `Token ${token}` } });
    for (const url of reads('DEMO')) {
      const response = await read(url);
      expect(response.statusCode, url).toBe(200);
      if (url.includes('?')) expect(response.json().length, url).toBeGreaterThan(0);
    }
    await changeOrganisation(service.db, id, change);
    for (const url of reads('DEMO')) {
      const response = await read(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ code: 'invalid_token' });
    }
  });

  it('answers 404 to an organisation not granted the supplier, though its lists have rows', async () => {
    const { apiKey } = await createOrganisation(service.db, uniqueName(), []);
    const { token } = await obtainToken(service.app, apiKey);
    for (const url of reads('DEMO')) {
      const response = await service.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Token ${token}` },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ code: 'import_supplier_not_found' });
    }
  });
});
