/**
 * `account show`: an account created through the service's stage and process requests is shown
 * by the CLI as it is kept, found by its external number or its account number, on both
 * databases; an account that cannot be shown is a clear error, exit 1.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readStagedData } from '../../src/imports/creation/creation.repository.js';
import { isoTime } from '../../src/datetime.js';
import { createDemoAccount, stageDemoAccount, useTestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { validateEnergyAccount } from '../../src/account/account.js';
import { HAS_REFERENCE, publishedFullAccount } from '../account/reference.js';
import { buildAccount, buildCustomer } from '../account/factory.js';
import { json, runCli, STACK_LINE } from './run-cli.js';
import { credit } from '../post-import/transactions-helpers.js';
import { TEST_ACCOUNT_CONTEXT } from '../helpers/platform.js';

type Payload = Record<string, unknown>;

await describeEachDialect('cli: account show', (dialect) => {
  const service = useTestService(dialect);
  const cli = (...args: string[]) => runCli({ DATABASE_URL: service.config.databaseUrl }, ...args);

  /** The process of a demo account, as the service recorded it. */
  const processOf = (external: string) =>
    service.db.kysely
      .selectFrom('import_processes as p')
      .innerJoin('import_suppliers as s', 's.id', 'p.supplier_id')
      .select(['p.id', 'p.account_created_at'])
      .where('s.code', '=', 'DEMO')
      .where('p.external_account_number', '=', external)
      .executeTakeFirstOrThrow();

  /** The normalised payload the stage kept for the account. */
  const stagedPayload = async (external: string): Promise<Payload> =>
    JSON.parse(
      (await readStagedData(service.db.kysely, (await processOf(external)).id)).data,
    ) as Payload;

  it.skipIf(!HAS_REFERENCE)(
    'shows the published full account, staged and created, as its normalised payload',
    async () => {
      const account = { ...publishedFullAccount('DEMO'), external_account_number: 'SHOW-FULL' };
      const normalised = validateEnergyAccount(account, TEST_ACCOUNT_CONTEXT);
      if (!normalised.ok) throw new Error(JSON.stringify(normalised.errors));
      const number = await createDemoAccount(service, account);
      const result = await cli('account', 'show', number, '--json');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      // Nothing is lost or changed on the way: the whole account comes back as validated.
      expect(json(result.stdout).account).toEqual(normalised.value);
    },
  );

  describe('a created account', () => {
    let number: string;
    let staged: Payload;
    beforeAll(async () => {
      number = await createDemoAccount(
        service,
        buildAccount({
          external_account_number: 'SHOW-1',
          customers: [
            buildCustomer(),
            buildCustomer({ given_name: 'Grace' }),
            buildCustomer({ given_name: 'Alan', email: 'alan@turing.co.uk' }),
          ],
        }),
      );
      staged = await stagedPayload('SHOW-1');
    });

    it('is shown by supplier and external number as one JSON document, its payload as kept', async () => {
      const result = await cli('account', 'show', 'DEMO', 'SHOW-1', '--json');
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const shown = json(result.stdout);
      const process = await processOf('SHOW-1');
      expect(shown).toEqual({
        service_account_number: number,
        import_supplier_code: 'DEMO',
        external_account_number: 'SHOW-1',
        operations_team: 'Migrations',
        created_at: isoTime(Number(process.account_created_at)),
        account: staged,
        added: { statements: [], notes: [], payment_instructions: [], transactions: [] },
      });
      expect(shown.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // The kept document, byte for byte: key order and every value as stored.
      const kept = await service.db.kysely
        .selectFrom('accounts')
        .select('document')
        .where('number', '=', number)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(shown.account)).toBe(kept.document);
    });

    it('is shown by its account number, in any letter case, as the same document', async () => {
      const bySupplier = json((await cli('account', 'show', 'DEMO', 'SHOW-1', '--json')).stdout);
      for (const given of [number, ` ${number.toLowerCase()} `]) {
        const result = await cli('--json', 'account', 'show', given);
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(json(result.stdout)).toEqual(bySupplier);
      }
    });

    it('is summed up for a person: its numbers, team, list sizes, then the payload', async () => {
      const result = await cli('account', 'show', number);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const [facts, lists, ...rest] = result.stdout.trimEnd().split('\n\n');
      expect(facts?.split('\n')).toEqual([
        `account          ${number}`,
        'import supplier  DEMO',
        'external number  SHOW-1',
        'operations team  Migrations',
        `created          ${isoTime(Number((await processOf('SHOW-1')).account_created_at))}`,
      ]);
      const sizes = new Map(
        lists?.split('\n').map((line) => line.split(/\s{2,}/) as [string, string]),
      );
      expect(sizes.get('LIST')).toBe('ITEMS');
      expect(sizes.get('customers')).toBe('3');
      const addresses = staged.supply_addresses as { meter_points: unknown[] }[];
      expect(sizes.get('supply_addresses')).toBe(String(addresses.length));
      const points = addresses.reduce((sum, address) => sum + address.meter_points.length, 0);
      expect(points).toBeGreaterThan(addresses.length);
      expect(sizes.get('supply_addresses.meter_points')).toBe(String(points));
      // The payload, indented: it parses back to the kept payload.
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatch(/^\{\n {2}"/);
      expect(JSON.parse(rest[0] ?? '')).toEqual(staged);
    });
  });

  it('shows what the post-import endpoints added, apart from the payload', async () => {
    const number = await createDemoAccount(
      service,
      buildAccount({ external_account_number: 'SHOW-ADDED' }),
    );
    const name = { import_supplier: 'DEMO', external_account_number: 'SHOW-ADDED' };
    const note = { body: 'Added after creation.', external_id: 'AFTER-1' };
    const instruction = { type: 'CARD', vendor: 'STRIPE', reference: 'CARD-SHOW' };
    const added = credit('SHOW-CREDIT', '5.50');
    for (const [path, body] of [
      ['notes', { ...name, notes: [note] }],
      ['payment-instruction', { ...name, ...instruction }],
      ['transactions', { ...name, transactions: [added] }],
    ] as const) {
      const response = await service.request({
        method: 'POST',
        url: `/v1/data-import/${path}/create/`,
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const shown = json((await cli('account', 'show', number, '--json')).stdout);
    expect(shown.added).toEqual({
      statements: [],
      notes: [note],
      payment_instructions: [{ ...name, ...instruction }],
      transactions: [expect.objectContaining({ ...added, amount: '5.50' })],
    });
    // The payload is still the account as created.
    expect((shown.account as { notes: unknown[] }).notes).toHaveLength(2);
    const text = (await cli('account', 'show', number)).stdout;
    expect(text).toMatch(/^added notes +1$/m);
    expect(text).toMatch(/^added payment_instructions +1$/m);
    expect(text).toMatch(/^added transactions +1$/m);
    expect(text).not.toMatch(/^added statements/m);
  });

  describe('an account that cannot be shown', () => {
    beforeAll(async () => {
      await stageDemoAccount(service, buildAccount({ external_account_number: 'SHOW-STAGED' }));
      await stageDemoAccount(service, buildAccount({ external_account_number: 'SHOW-CLAIMED' }));
      // As a process request holds it while it creates the account.
      await service.db.kysely
        .updateTable('import_processes')
        .set({ state: 'in_progress', claim_id: 'held', lease_until: Date.now() + 600_000 })
        .where('id', '=', (await processOf('SHOW-CLAIMED')).id)
        .execute();
    });

    it.each([
      [['DEMO', 'SHOW-NEVER'], 'account "SHOW-NEVER" of import supplier "DEMO" was never staged'],
      [['DEMO', 'SHOW-STAGED'], 'account "SHOW-STAGED" of import supplier "DEMO" is staged, but'],
      [['DEMO', 'SHOW-CLAIMED'], 'created for it yet; a process request is creating it'],
      [['NOPE', 'SHOW-1'], 'import supplier "NOPE" does not exist'],
      [['DEMO', 'SHOW 1'], 'invalid external account number "SHOW 1"'],
      [['A-0000000G'], 'invalid account number "A-0000000G": use A- and 8 hex digits'],
      [['DEMO'], 'invalid account number "DEMO"'],
      [['A-1234567'], 'invalid account number "A-1234567"'],
      [['A-00000000'], 'account "A-00000000" does not exist'],
      [[], "missing required argument 'supplier_or_number'"],
      [['DEMO', 'SHOW-1', 'extra'], "too many arguments for 'show'"],
    ])('%j exits 1 with a clear message', async (args, message) => {
      const result = await cli('account', 'show', ...args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(STACK_LINE);
    });

    it('reports the error as one JSON document with --json', async () => {
      const result = await cli('account', 'show', 'DEMO', 'SHOW-STAGED', '--json');
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(json(result.stderr)).toEqual({
        error:
          'account "SHOW-STAGED" of import supplier "DEMO" is staged, ' +
          'but no account was created for it yet',
      });
    });
  });
});
