/** payment-instruction/create: one active instruction of a type per account. */
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { rowCounts, useTestService } from '../helpers/app.js';
import { expectLastEvent, timeline } from '../helpers/events.js';
import {
  additions,
  createAccount,
  HAS_REFERENCE,
  publishedExample,
  send,
  validBody,
} from './helpers.js';

const ADDED = 'EVENT_ACCOUNT_IMPORT_PROCESS_PAYMENT_INSTRUCTION_ADDED';

await describeEachDialect('payment instructions', (dialect) => {
  const service = useTestService(dialect);

  it.skipIf(!HAS_REFERENCE)(
    'adds the published example: 201 with the account numbers',
    async () => {
      const number = await createAccount(service, 'PI-EXAMPLE');
      const response = await send(
        service,
        'paymentInstruction',
        publishedExample('paymentInstruction', 'PI-EXAMPLE'),
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toEqual({
        account_number: number,
        service_account_number: number,
        reference: 'THIS-IS-A-FAKE-REFERENCE',
      });
    },
  );

  it('refuses a second active instruction of a type, with the published fields', async () => {
    await createAccount(service, 'PI-1');
    const first = await send(
      service,
      'paymentInstruction',
      validBody('paymentInstruction', 'PI-1'),
    );
    expect(first.statusCode).toBe(201);
    const data = { type: 'CARD', reference: 'CARD-0001' };
    await expectLastEvent(service, 'PI-1', ADDED, data, first);
    const before = await rowCounts(service.db);
    const events = await timeline(service, 'PI-1');
    const second = validBody('paymentInstruction', 'PI-1', { reference: 'CARD-0002' });
    const response = await send(service, 'paymentInstruction', second);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'payment_instruction_already_active',
      external_account_number: 'PI-1',
      import_supplier: 'DEMO',
      reference: 'CARD-0002',
    });
    expect(await rowCounts(service.db)).toEqual(before);
    expect(await timeline(service, 'PI-1')).toEqual(events);
  });

  it('counts the instruction the account was created with (the factory DIRECT_DEBIT)', async () => {
    await createAccount(service, 'PI-2');
    const body = validBody('paymentInstruction', 'PI-2', { type: 'DIRECT_DEBIT' });
    const response = await send(service, 'paymentInstruction', body);
    expect(response.json()).toMatchObject({ code: 'payment_instruction_already_active' });
  });

  it('takes another type, and one of the same type while the other starts later', async () => {
    await createAccount(service, 'PI-3');
    const future = validBody('paymentInstruction', 'PI-3', {
      valid_from: '2999-01-01',
      reference: 'F-1',
    });
    expect((await send(service, 'paymentInstruction', future)).statusCode).toBe(201);
    const now = validBody('paymentInstruction', 'PI-3', { reference: 'NOW-1' });
    expect((await send(service, 'paymentInstruction', now)).statusCode).toBe(201);
    const slip = validBody('paymentInstruction', 'PI-3', {
      type: 'PAYMENT_SLIP',
      reference: 'SLIP-1',
    });
    expect((await send(service, 'paymentInstruction', slip)).statusCode).toBe(201);
  });

  it('refuses the same future instruction sent twice', async () => {
    await createAccount(service, 'PI-4');
    const future = validBody('paymentInstruction', 'PI-4', { valid_from: '2999-01-01' });
    expect((await send(service, 'paymentInstruction', future)).statusCode).toBe(201);
    const events = await timeline(service, 'PI-4');
    const again = await send(service, 'paymentInstruction', future);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'payment_instruction_already_active' });
    expect(await timeline(service, 'PI-4')).toEqual(events);
  });

  it('adds one of identical requests sent at once', async () => {
    await createAccount(service, 'PI-5');
    const body = validBody('paymentInstruction', 'PI-5', { reference: 'AT-ONCE' });
    const responses = await Promise.all(
      [1, 2, 3].map(() => send(service, 'paymentInstruction', body)),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const kept = (await additions(service, 'payment_instruction')).filter(
      (i) => i.reference === 'AT-ONCE',
    );
    expect(kept).toHaveLength(1);
    const added = (await timeline(service, 'PI-5')).filter((e) => e.event === ADDED);
    expect(added.map((e) => e.data)).toEqual([{ type: 'CARD', reference: 'AT-ONCE' }]);
  });

  it('answers instruction_reference as the reference when it is the one given', async () => {
    await createAccount(service, 'PI-6');
    const { reference: _r, ...body } = validBody('paymentInstruction', 'PI-6');
    const response = await send(service, 'paymentInstruction', {
      ...body,
      instruction_reference: 'OLD-1',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ reference: 'OLD-1' });
  });

  it('refuses both references, neither, an unknown ledger code and a bad type, all at once', async () => {
    await createAccount(service, 'PI-7');
    const before = await rowCounts(service.db);
    const both = validBody('paymentInstruction', 'PI-7', {
      instruction_reference: 'OLD-1',
      ledger_code: 'NO-SUCH-LEDGER',
      type: 'CHEQUE',
    });
    const response = await send(service, 'paymentInstruction', both);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'account_failed_validation' });
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'mutually_exclusive_field_required',
          attr: 'instruction_reference',
        }),
        expect.objectContaining({ code: 'ledger_code_does_not_exist', attr: 'ledger_code' }),
        expect.objectContaining({ code: 'invalid_choice', attr: 'type' }),
      ]),
    );
    const { reference: _r, ...neither } = validBody('paymentInstruction', 'PI-7');
    const none = await send(service, 'paymentInstruction', neither);
    expect(none.json().errors).toEqual([
      expect.objectContaining({ code: 'mutually_exclusive_field_required', attr: 'reference' }),
    ]);
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it('takes a ledger code of the reference catalogue', async () => {
    await createAccount(service, 'PI-8');
    const ledger = await service.db.kysely
      .selectFrom('reference_entries')
      .select('code')
      .where('kind', '=', 'ledger_type')
      .executeTakeFirstOrThrow();
    const body = validBody('paymentInstruction', 'PI-8', { ledger_code: ledger.code });
    const response = await send(service, 'paymentInstruction', body);
    expect(response.statusCode, response.body).toBe(201);
  });
});
