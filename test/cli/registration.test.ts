/**
 * `registration record`: the adapter's reports move a meter point along the registration
 * lifecycle, and only along it; a refused report exits 1 and changes nothing. Both databases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setSupplier } from '../../src/operator/suppliers.service.js';
import { buildAccount, VALID_MPAN, VALID_MPRN } from '../account/factory.js';
import { createDemoAccount, rowCounts, useTestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { eventCount, expectLastEvent, timeline } from '../helpers/events.js';
import { getStatuses, sendFlows } from '../helpers/registrations.js';
import { json, runCli, STACK_LINE } from './run-cli.js';

const CHANGED = 'EVENT_ACCOUNT_IMPORT_PROCESS_REGISTRATION_STATUS_CHANGED';

await describeEachDialect('cli: registration record', (dialect) => {
  const service = useTestService(dialect);
  const cli = (...args: string[]) => runCli({ DATABASE_URL: service.config.databaseUrl }, ...args);
  let older: string;
  let newer: string;

  /** The meter point's status and detail on the account with this number. */
  const registrationOf = (accountNumber: string, mpxn: string) =>
    service.db.kysely
      .selectFrom('meter_point_registrations as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .select(['r.status', 'r.detail'])
      .where('a.number', '=', accountNumber)
      .where('r.mpxn', '=', mpxn)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    await setSupplier(service.db, 'DEMO', { ruleSettings: { send_registration_flows: true } });
    older = await createDemoAccount(service, buildAccount({ external_account_number: 'CLI-OLD' }));
    // The same meter points, imported again on a newer account.
    newer = await createDemoAccount(service, buildAccount({ external_account_number: 'CLI-NEW' }));
    const sent = await sendFlows(service, 'CLI-NEW');
    expect(sent.statusCode).toBe(200);
  });

  it('records the moves of a registration through to ON_SUPPLY, on the newest account, with their events', async () => {
    const accepted = await cli(
      'registration',
      'record',
      VALID_MPAN,
      'REGISTRATION_ACCEPTED',
      '--detail',
      'accepted by the registration service',
      '--json',
    );
    expect(accepted).toMatchObject({ code: 0, stderr: '' });
    expect(json(accepted.stdout)).toEqual({
      mpxn: VALID_MPAN,
      service_account_number: newer,
      import_supplier_code: 'DEMO',
      external_account_number: 'CLI-NEW',
      previous_status: 'REGISTRATION_REQUESTED',
      status: 'REGISTRATION_ACCEPTED',
      detail: 'accepted by the registration service',
      changed: true,
    });
    await expectLastEvent(service, 'CLI-NEW', CHANGED, {
      mpxn: VALID_MPAN,
      from: 'REGISTRATION_REQUESTED',
      to: 'REGISTRATION_ACCEPTED',
      detail: 'accepted by the registration service',
    });
    const onSupply = await cli('registration', 'record', VALID_MPAN, 'on_supply');
    expect(onSupply).toMatchObject({
      code: 0,
      stdout: `recorded meter point ${VALID_MPAN} of account ${newer}: REGISTRATION_ACCEPTED -> ON_SUPPLY\n`,
    });
    expect(await registrationOf(newer, VALID_MPAN)).toEqual({ status: 'ON_SUPPLY', detail: null });
    expect(await registrationOf(older, VALID_MPAN)).toMatchObject({ status: 'PRE_REGISTRATION' });
    const statuses = await getStatuses(service, 'CLI-NEW');
    expect(statuses.json()[0]).toEqual({ mpxn: VALID_MPAN, status: 'ON_SUPPLY' });
    const data = { mpxn: VALID_MPAN, from: 'REGISTRATION_ACCEPTED', to: 'ON_SUPPLY' };
    await expectLastEvent(service, 'CLI-NEW', CHANGED, data);
  });

  it('accepts a report repeated, and changes nothing', async () => {
    const before = await rowCounts(service.db);
    const events = await timeline(service, 'CLI-NEW');
    const again = await cli('registration', 'record', VALID_MPAN, 'ON_SUPPLY', '--json');
    expect(again.code).toBe(0);
    expect(json(again.stdout)).toMatchObject({ status: 'ON_SUPPLY', changed: false });
    expect(await rowCounts(service.db)).toEqual(before);
    expect(await timeline(service, 'CLI-NEW')).toEqual(events);
  });

  it('records the move of another account named with --account', async () => {
    const result = await cli(
      'registration',
      'record',
      VALID_MPRN,
      'UNABLE_TO_REGISTER',
      '--account',
      older.toLowerCase(),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await registrationOf(older, VALID_MPRN)).toEqual({
      status: 'UNABLE_TO_REGISTER',
      detail: null,
    });
    expect(await registrationOf(newer, VALID_MPRN)).toMatchObject({
      status: 'REGISTRATION_REQUESTED',
    });
    const data = { mpxn: VALID_MPRN, from: 'PRE_REGISTRATION', to: 'UNABLE_TO_REGISTER' };
    await expectLastEvent(service, 'CLI-OLD', CHANGED, data);
  });

  describe('refusals, exit 1, nothing changed', () => {
    const cases: [string, string[], RegExp][] = [
      [
        'a move the lifecycle does not allow',
        [VALID_MPRN, 'ON_SUPPLY'],
        /^error: meter point "3240865509" is REGISTRATION_REQUESTED, and the registration lifecycle does not move it to ON_SUPPLY: from there it may go to UNABLE_TO_REGISTER, AREGI_SENT, /,
      ],
      [
        'an account without the meter point',
        [VALID_MPRN, 'REGISTRATION_ACCEPTED', '--account', 'A-00000000'],
        /^error: account "A-00000000" has no meter point "3240865509"\n$/,
      ],
      [
        'REGISTRATION_REQUESTED, which only a send moves to',
        [VALID_MPAN, 'REGISTRATION_REQUESTED'],
        /^error: REGISTRATION_REQUESTED is not reported: a send-registration-flows request/,
      ],
      [
        'an unknown status',
        [VALID_MPAN, 'REGISTERED'],
        /^error: "REGISTERED" is not a meter point status/,
      ],
      [
        'an unknown meter point',
        ['9999999999', 'ON_SUPPLY'],
        /^error: no created account has meter point "9999999999"\n$/,
      ],
      [
        'a bad account number',
        [VALID_MPAN, 'LOST', '--account', 'CLI-OLD'],
        /^error: invalid account number "CLI-OLD"/,
      ],
      ['a missing status', [VALID_MPAN], /^error: missing required argument 'status'/],
    ];

    it.each(cases)('refuses %s', async (_title, args, message) => {
      const before = await rowCounts(service.db);
      const events = await eventCount(service);
      const statuses = await service.db.kysely
        .selectFrom('meter_point_registrations')
        .select(['status', 'detail', 'updated_at'])
        .orderBy('id')
        .execute();
      const result = await cli('registration', 'record', ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(STACK_LINE);
      expect(await rowCounts(service.db)).toEqual(before);
      expect(await eventCount(service)).toBe(events);
      expect(
        await service.db.kysely
          .selectFrom('meter_point_registrations')
          .select(['status', 'detail', 'updated_at'])
          .orderBy('id')
          .execute(),
      ).toEqual(statuses);
    });

    it('refuses a move out of a status no report moves on from', async () => {
      const result = await cli(
        'registration',
        'record',
        VALID_MPRN,
        'REGISTRATION_ACCEPTED',
        '--account',
        older,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `error: meter point "3240865509" is UNABLE_TO_REGISTER, and the registration lifecycle does not move it to REGISTRATION_ACCEPTED: no report moves it on from there\n`,
      );
    });
  });
});
