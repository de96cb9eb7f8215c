/**
 * The meter point registration endpoints over HTTP, on both databases: the statuses a creation
 * gives, the send request's answer per meter point, its outbox rows, sending twice and at once,
 * and the refusals, which change nothing.
 */
import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { setSupplier } from '../../src/operator/suppliers.service.js';
import { buildAccount, mpanWithCheckDigit, VALID_MPAN, VALID_MPRN } from '../account/factory.js';
import { securityCases } from '../helpers/auth.js';
import { describeEachDialect } from '../helpers/databases.js';
import { expectLastEvent, timeline } from '../helpers/events.js';
import {
  createDemoAccount,
  rowCounts,
  stageDemoAccount,
  updateSupplier,
  useTestService,
  type TestService,
} from '../helpers/app.js';
import {
  getStatuses as statuses,
  REGISTRATION_PATHS,
  sendFlows as send,
} from '../helpers/registrations.js';

/** The factory account's meter points, in its order. */
const MPXNS = [VALID_MPAN, VALID_MPRN, mpanWithCheckDigit('200012345678'), '7654321'];

const REQUESTED = 'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_REQUESTED';

const sendsFlows = (service: TestService, on: boolean) =>
  setSupplier(service.db, 'DEMO', { ruleSettings: { send_registration_flows: on } });

/** The outbox rows of the account with this external number, oldest first. */
async function outboxOf(service: TestService, external: string) {
  return service.db.kysely
    .selectFrom('registration_outbox as o')
    .innerJoin('accounts as a', 'a.id', 'o.account_id')
    .select(['o.mpxn', 'o.flow', 'o.sent_at'])
    .where('a.external_account_number', '=', external)
    .orderBy('o.id')
    .execute();
}

/** Sets a meter point's status directly, as the adapter's reports would have. */
async function setStatus(service: TestService, external: string, mpxn: string, status: string) {
  const account = await service.db.kysely
    .selectFrom('accounts')
    .select('id')
    .where('external_account_number', '=', external)
    .executeTakeFirstOrThrow();
  await service.db.kysely
    .updateTable('meter_point_registrations')
    .set({ status })
    .where('account_id', '=', account.id)
    .where('mpxn', '=', mpxn)
    .execute();
}

await describeEachDialect('meter point registrations', (dialect) => {
  const service = useTestService(dialect);

  describe('statuses after creation', () => {
    beforeAll(async () => {
      await sendsFlows(service, true);
      await createDemoAccount(service, buildAccount({ external_account_number: 'REG-PRE' }));
      await sendsFlows(service, false);
      await createDemoAccount(service, buildAccount({ external_account_number: 'REG-ON' }));
    });

    it('starts each meter point in PRE_REGISTRATION when the supplier sends registration flows', async () => {
      const response = await statuses(service, 'REG-PRE');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(MPXNS.map((mpxn) => ({ mpxn, status: 'PRE_REGISTRATION' })));
    });

    it('starts each meter point ON_SUPPLY when it does not, and sends no flow for them', async () => {
      expect((await statuses(service, 'REG-ON')).json()).toEqual(
        MPXNS.map((mpxn) => ({ mpxn, status: 'ON_SUPPLY' })),
      );
      const response = await send(service, 'REG-ON');
      expect(response.statusCode).toBe(200);
      for (const point of response.json().meter_points) {
        expect(point).toMatchObject({ status: 'REGISTRATION_FLOW_ERROR' });
        expect(point.error_detail).toMatch(/already supplied/);
      }
      expect(await outboxOf(service, 'REG-ON')).toEqual([]);
      expect((await timeline(service, 'REG-ON')).map((e) => e.event)).not.toContain(REQUESTED);
    });

    it('answers with and without the trailing slash', async () => {
      const url = REGISTRATION_PATHS.statuses('DEMO', 'REG-PRE').replace(/\/$/, '');
      const response = await service.request({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toHaveLength(4);
      const sent = await service.request({
        method: 'POST',
        url: REGISTRATION_PATHS.send('DEMO', 'REG-ON').replace(/\/$/, ''),
      });
      expect(sent.statusCode).toBe(200);
    });
  });

  for (const [method, url] of [
    ['GET', REGISTRATION_PATHS.statuses('DEMO', 'REG-PRE')],
    ['POST', REGISTRATION_PATHS.send('DEMO', 'REG-PRE')],
  ] as const) {
    describe(`security of ${method} ${url}`, () => {
      securityCases(() => ({ app: service.app, ctx: service.ctx, method, url }), {
        ungranted: { status: 404, code: 'import_supplier_not_found' },
      });
    });
  }

  describe('sending registration flows', () => {
    beforeAll(async () => {
      await sendsFlows(service, true);
      for (const external of ['SEND-1', 'SEND-MIXED', 'SEND-RACE', 'SEND-EMPTY']) {
        await createDemoAccount(service, buildAccount({ external_account_number: external }));
      }
      await sendsFlows(service, false);
    });

    it('requests the registration of every meter point, and queues one flow each', async () => {
      const response = await send(service, 'SEND-1');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        external_account_number: 'SEND-1',
        import_supplier_code: 'DEMO',
        meter_points: MPXNS.map((mpxn) => ({ mpxn, status: 'REGISTRATION_FLOW_SUCCESS' })),
      });
      expect((await statuses(service, 'SEND-1')).json()).toEqual(
        MPXNS.map((mpxn) => ({ mpxn, status: 'REGISTRATION_REQUESTED' })),
      );
      expect(await outboxOf(service, 'SEND-1')).toEqual([
        { mpxn: MPXNS[0], flow: 'electricity_registration', sent_at: null },
        { mpxn: MPXNS[1], flow: 'gas_registration', sent_at: null },
        { mpxn: MPXNS[2], flow: 'electricity_registration', sent_at: null },
        { mpxn: MPXNS[3], flow: 'gas_registration', sent_at: null },
      ]);
      await expectLastEvent(service, 'SEND-1', REQUESTED, { mpxns: MPXNS }, response);
    });

    it('sends nothing twice: a second send answers an error for each meter point and writes nothing', async () => {
      const before = await rowCounts(service.db);
      const events = await timeline(service, 'SEND-1');
      const response = await send(service, 'SEND-1');
      expect(response.statusCode).toBe(200);
      for (const point of response.json().meter_points) {
        expect(point).toMatchObject({
          status: 'REGISTRATION_FLOW_ERROR',
          error_detail: expect.stringMatching(/already sent/),
        });
      }
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await outboxOf(service, 'SEND-1')).toHaveLength(4);
      expect(await timeline(service, 'SEND-1')).toEqual(events);
    });

    it('answers each meter point by its own status', async () => {
      const [rejected, onSupply, requested, unable] = MPXNS as [string, string, string, string];
      await setStatus(service, 'SEND-MIXED', rejected, 'REGISTRATION_REJECTED');
      await setStatus(service, 'SEND-MIXED', onSupply, 'ON_SUPPLY');
      await setStatus(service, 'SEND-MIXED', requested, 'OBJECTION_RECEIVED');
      await setStatus(service, 'SEND-MIXED', unable, 'LOST');
      const response = await send(service, 'SEND-MIXED');
      const points = response.json().meter_points;
      expect(points.map((p: { status: string }) => p.status)).toEqual([
        'REGISTRATION_FLOW_SUCCESS',
        'REGISTRATION_FLOW_ERROR',
        'REGISTRATION_FLOW_ERROR',
        'REGISTRATION_FLOW_ERROR',
      ]);
      expect(points[0].error_detail).toBeUndefined();
      expect(points[1].error_detail).toMatch(/already supplied \(status ON_SUPPLY\)/);
      expect(points[2].error_detail).toMatch(/under way .*OBJECTION_RECEIVED/);
      expect(points[3].error_detail).toMatch(/lost .*LOST/);
      expect((await outboxOf(service, 'SEND-MIXED')).map((row) => row.mpxn)).toEqual([rejected]);
      await expectLastEvent(service, 'SEND-MIXED', REQUESTED, { mpxns: [rejected] }, response);
      expect((await statuses(service, 'SEND-MIXED')).json()).toEqual([
        { mpxn: rejected, status: 'REGISTRATION_REQUESTED' },
        { mpxn: onSupply, status: 'ON_SUPPLY' },
        { mpxn: requested, status: 'OBJECTION_RECEIVED' },
        { mpxn: unable, status: 'LOST' },
      ]);
    });

    it('takes a send without a body, whatever content type it names', async () => {
      const url = REGISTRATION_PATHS.send('DEMO', 'SEND-EMPTY');
      const json = 'application/json';
      const requests: InjectOptions[] = [
        { headers: { 'content-type': json } },
        { headers: { 'content-type': json }, payload: '' },
        // curl -d '' names a form's content type, fetch with an empty string text.
        { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' },
        { headers: { 'content-type': 'text/plain;charset=UTF-8' }, payload: '' },
        // No length: sent in chunks, of which there are none.
        {
          headers: { 'content-type': json, 'transfer-encoding': 'chunked' },
          payload: Readable.from([]),
        },
      ];
      const answers = [];
      for (const request of requests) {
        const response = await service.request({ method: 'POST', url, ...request });
        expect(response.statusCode, response.body).toBe(200);
        answers.push(response.json().meter_points[0].status);
      }
      expect(answers).toEqual([
        'REGISTRATION_FLOW_SUCCESS',
        ...Array(4).fill('REGISTRATION_FLOW_ERROR'),
      ]);
    });

    it('queues one flow per meter point when identical sends arrive at once', async () => {
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => send(service, 'SEND-RACE')),
      );
      for (const response of responses) expect(response.statusCode, response.body).toBe(200);
      // Each meter point succeeded in exactly one of the answers.
      for (const [i, mpxn] of MPXNS.entries()) {
        const successes = responses.filter(
          (response) => response.json().meter_points[i].status === 'REGISTRATION_FLOW_SUCCESS',
        );
        expect(successes, mpxn).toHaveLength(1);
      }
      const outbox = await outboxOf(service, 'SEND-RACE');
      expect(outbox.map((row) => row.mpxn).sort()).toEqual([...MPXNS].sort());
      // Each meter point is in the event of the send that moved it, and in no other.
      const recorded = (await timeline(service, 'SEND-RACE')).filter((e) => e.event === REQUESTED);
      const moved = recorded.flatMap((e) => (e.data as { mpxns: string[] }).mpxns);
      expect(moved.sort()).toEqual([...MPXNS].sort());
    });
  });

  describe('refusals, which change nothing', () => {
    beforeAll(async () => {
      await sendsFlows(service, true);
      await createDemoAccount(service, buildAccount({ external_account_number: 'REF-1' }));
      await createDemoAccount(service, buildAccount({ external_account_number: 'REF-PAUSED' }));
      await setSupplier(service.db, 'DEMO', { ruleSettings: { skip_property_creation: true } });
      await createDemoAccount(
        service,
        buildAccount({ external_account_number: 'REF-NO-POINTS', supply_addresses: undefined }),
      );
      await setSupplier(service.db, 'DEMO', { ruleSettings: { skip_property_creation: false } });
      await sendsFlows(service, false);
      await stageDemoAccount(service, buildAccount({ external_account_number: 'REF-STAGED' }));
    });

    const cases: [string, string, string, number, string][] = [
      [
        'an account with no meter points',
        'DEMO',
        'REF-NO-POINTS',
        404,
        'account_has_no_meter_points',
      ],
      ['an unknown supplier', 'NOPE', 'REF-1', 404, 'import_supplier_not_found'],
      ["another organisation's supplier", 'OTHER', 'REF-1', 404, 'import_supplier_not_found'],
      ['nothing staged', 'DEMO', 'REF-NEVER', 404, 'import_process_does_not_exist'],
      ['staged but not created', 'DEMO', 'REF-STAGED', 404, 'account_not_found'],
    ];

    it.each(cases)(
      'refuses %s, with the published fields',
      async (_title, supplier, external, status, code) => {
        const before = await rowCounts(service.db);
        for (const response of [
          await statuses(service, external, supplier),
          await send(service, external, supplier),
        ]) {
          expect(response.statusCode, response.body).toBe(status);
          const body = response.json();
          expect(body).toMatchObject({
            code,
            external_account_number: external,
            import_supplier_code: supplier,
            errors: [{ code, attr: null }],
          });
          expect(body.error_detail).toBe(body.detail);
        }
        expect(await rowCounts(service.db)).toEqual(before);
      },
    );

    it('refuses a send with a body, null too, and takes an empty object for none', async () => {
      const before = await rowCounts(service.db);
      const events = await timeline(service, 'REF-1');
      const url = REGISTRATION_PATHS.send('DEMO', 'REF-1');
      const headers = { 'content-type': 'application/json' };
      for (const payload of ['{"dry_run": true}', 'null', '[]', ' ']) {
        const refused = await service.request({ method: 'POST', url, headers, payload });
        expect(refused.statusCode, payload).toBe(400);
        expect(refused.json().code).toBe('malformed_request');
      }
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await timeline(service, 'REF-1')).toEqual(events);
      const empty = await service.request({ method: 'POST', url, payload: {} });
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.json().meter_points[0].status).toBe('REGISTRATION_FLOW_SUCCESS');
    });

    it('lets a paused supplier read the statuses, and refuses its sends', async () => {
      await updateSupplier(service, 'DEMO', { status: 'Paused' });
      try {
        const before = await rowCounts(service.db);
        const events = await timeline(service, 'REF-PAUSED');
        const read = await statuses(service, 'REF-PAUSED');
        expect(read.statusCode).toBe(200);
        expect(read.json()).toHaveLength(4);
        const refused = await send(service, 'REF-PAUSED');
        expect(refused.statusCode).toBe(400);
        expect(refused.json().code).toBe('import_supplier_migration_not_ongoing');
        expect(await rowCounts(service.db)).toEqual(before);
        expect(await timeline(service, 'REF-PAUSED')).toEqual(events);
        expect((await statuses(service, 'REF-PAUSED')).json()[0].status).toBe('PRE_REGISTRATION');
      } finally {
        await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
      }
    });
  });
});
