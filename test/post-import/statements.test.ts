/** historical-statements/create: statements added to a created account, all or nothing. */
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { rowCounts, useTestService } from '../helpers/app.js';
import { expectLastEvent, timeline } from '../helpers/events.js';
import {
  addedDocumentRows,
  additions,
  createAccount,
  HAS_REFERENCE,
  publishedExample,
  send,
  validBody,
} from './helpers.js';

const statement = (id: string) => ({
  statement_id: id,
  bill_period_from_date: '2023-02-01',
  bill_period_to_date: '2023-02-28',
  issued_date: '2023-03-01',
  gross_amount: 4200,
  statement_path: `statements/2023/${id}.pdf`,
});

await describeEachDialect('historical statements', (dialect) => {
  const service = useTestService(dialect);

  it.skipIf(!HAS_REFERENCE)(
    'adds the published example: 201 with the body as validated',
    async () => {
      await createAccount(service, 'HS-EXAMPLE');
      const body = publishedExample('statements', 'HS-EXAMPLE');
      const response = await send(service, 'statements', body);
      expect(response.statusCode, response.body).toBe(201);
      const statements = body.statements as Record<string, unknown>[];
      expect(response.json()).toEqual({
        ...body,
        // Normalised as every document path is: rooted.
        statements: statements.map((s) => ({
          ...s,
          statement_path: `/${String(s.statement_path)}`,
        })),
      });
    },
  );

  const ADDED = 'EVENT_ACCOUNT_IMPORT_PROCESS_STATEMENTS_ADDED';

  it('adds several statements and keeps each as validated, with their event', async () => {
    const number = await createAccount(service, 'HS-1');
    const response = await send(
      service,
      'statements',
      validBody('statements', 'HS-1', { statements: [statement('HS-1-A'), statement('HS-1-B')] }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const kept = (await additions(service, 'statement')).map((s) => s.statement_id);
    expect(kept).toEqual(expect.arrayContaining(['HS-1-A', 'HS-1-B']));
    const data = { statement_ids: ['HS-1-A', 'HS-1-B'] };
    await expectLastEvent(service, 'HS-1', ADDED, data, response);
    // Their documents are located as the account's own (supplier DEMO has no document root).
    expect(await addedDocumentRows(service, number)).toEqual(
      ['HS-1-A', 'HS-1-B'].map((id) => ({
        source: expect.stringMatching(/^added\.statements\.\d+\.statement_path$/) as string,
        path: `/statements/2023/${id}.pdf`,
        location: `account-documents/statements/2023/${id}.pdf`,
      })),
    );
  });

  it('answers a request with no statements 201, and writes nothing, no event either', async () => {
    await createAccount(service, 'HS-EMPTY');
    const before = await rowCounts(service.db);
    const events = await timeline(service, 'HS-EMPTY');
    const body = validBody('statements', 'HS-EMPTY', { statements: [] });
    const response = await send(service, 'statements', body);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual(body);
    expect(await rowCounts(service.db)).toEqual(before);
    expect(await timeline(service, 'HS-EMPTY')).toEqual(events);
  });

  it('refuses a statement_id the account was created with, naming it, and adds nothing', async () => {
    await createAccount(service, 'HS-2');
    const before = await rowCounts(service.db);
    const response = await send(
      service,
      'statements',
      validBody('statements', 'HS-2', { statements: [statement('HS-2-A'), statement('S-2')] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'historical_statement_already_exists',
      errors: [
        {
          code: 'historical_statement_already_exists',
          attr: 'statements.1.statement_id',
        },
      ],
    });
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it('refuses a statement added before, and the whole request with it', async () => {
    await createAccount(service, 'HS-3');
    const first = validBody('statements', 'HS-3', { statements: [statement('HS-3-A')] });
    expect((await send(service, 'statements', first)).statusCode).toBe(201);
    const before = await rowCounts(service.db);
    const events = await timeline(service, 'HS-3');
    const again = validBody('statements', 'HS-3', {
      statements: [statement('HS-3-B'), statement('HS-3-A'), statement('HS-3-C')],
    });
    const response = await send(service, 'statements', again);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      expect.objectContaining({ attr: 'statements.1.statement_id' }),
    ]);
    expect(await rowCounts(service.db)).toEqual(before);
    expect(await timeline(service, 'HS-3')).toEqual(events);
  });

  it('takes a statement_id another account has: ids are unique within an account', async () => {
    await createAccount(service, 'HS-4');
    await createAccount(service, 'HS-5');
    const body = (external: string) =>
      validBody('statements', external, { statements: [statement('SHARED-1')] });
    expect((await send(service, 'statements', body('HS-4'))).statusCode).toBe(201);
    expect((await send(service, 'statements', body('HS-5'))).statusCode).toBe(201);
  });

  it('refuses a statement_id repeated within the request as a validation error', async () => {
    await createAccount(service, 'HS-6');
    const response = await send(
      service,
      'statements',
      validBody('statements', 'HS-6', { statements: [statement('D-1'), statement('D-1')] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'account_failed_validation',
      errors: [{ code: 'duplicate_statement_ids', attr: 'statements.1.statement_id' }],
    });
  });

  it('adds the statements of two identical requests sent at once exactly once', async () => {
    await createAccount(service, 'HS-7');
    const body = validBody('statements', 'HS-7', {
      statements: [statement('HS-7-A'), statement('HS-7-B')],
    });
    const responses = await Promise.all([1, 2, 3].map(() => send(service, 'statements', body)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const kept = (await additions(service, 'statement')).filter((s) =>
      String(s.statement_id).startsWith('HS-7-'),
    );
    expect(kept).toHaveLength(2);
    const added = (await timeline(service, 'HS-7')).filter((e) => e.event === ADDED);
    expect(added.map((e) => e.data)).toEqual([{ statement_ids: ['HS-7-A', 'HS-7-B'] }]);
  });

  it('adds the same statements sent at once in different orders once, without a deadlock', async () => {
    await createAccount(service, 'HS-9');
    const ids = Array.from({ length: 400 }, (_, i) => `HS-9-${String(i).padStart(3, '0')}`);
    const body = (order: string[]) =>
      validBody('statements', 'HS-9', { statements: order.map(statement) });
    const responses = await Promise.all([
      send(service, 'statements', body(ids)),
      send(service, 'statements', body([...ids].reverse())),
      send(service, 'statements', body([...ids.slice(200), ...ids.slice(0, 200)])),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const kept = (await additions(service, 'statement')).filter((s) =>
      String(s.statement_id).startsWith('HS-9-'),
    );
    expect(kept).toHaveLength(400);
  });

  it('adds thousands of statements of one request, and caps the errors of as many bad ones', async () => {
    await createAccount(service, 'HS-10');
    const many = Array.from({ length: 4000 }, (_, i) => statement(`HS-10-${i}`));
    const body = validBody('statements', 'HS-10', { statements: many });
    expect(JSON.stringify(body).length).toBeGreaterThan(600_000);
    const response = await send(service, 'statements', body);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    const kept = (await additions(service, 'statement')).filter((s) =>
      String(s.statement_id).startsWith('HS-10-'),
    );
    expect(kept).toHaveLength(4000);
    const before = await rowCounts(service.db);
    const bad = many.map((s) => ({ ...s, bill_period_from_date: 'soon', gross_amount: 'lots' }));
    const refused = await send(service, 'statements', { ...body, statements: bad });
    expect(refused.statusCode).toBe(400);
    const errors = (refused.json() as { errors: { code: string }[] }).errors;
    expect(errors.at(-1)?.code).toBe('too_many_errors');
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it('keeps a statement_id too long for an index entry, and refuses it the second time', async () => {
    await createAccount(service, 'HS-8');
    const long = { ...statement('L'.repeat(5000)), statement_path: 'statements/long.pdf' };
    const body = validBody('statements', 'HS-8', { statements: [long] });
    expect((await send(service, 'statements', body)).statusCode).toBe(201);
    const again = await send(service, 'statements', body);
    expect(again.json()).toMatchObject({ code: 'historical_statement_already_exists' });
  });
});
