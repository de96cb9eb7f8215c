/**
 * The schedule workers: each scheduled account is created once, within its window, with its
 * outcome and events committed with it; dry runs keep nothing; failures carry a published code.
 */
import { expect, it } from 'vitest';
import { readAccount } from '../../src/accounts/account-store.js';
import { removeReference } from '../../src/reference/reference.service.js';
import { demoReferenceLines } from '../../src/reference/reference.demo.js';
import { importReference } from '../../src/reference/reference.service.js';
import { buildMeterPoint } from '../account/factory.js';
import { describeEachDialect } from '../helpers/databases.js';
import { markSkipped, rowCounts, updateSupplier, useTestService } from '../helpers/app.js';
import { expectLastEvent } from '../helpers/events.js';
import {
  accountCount,
  drain,
  eventNames,
  poolOf,
  scheduleAccount,
  scheduleRow,
} from './worker-helpers.js';

await describeEachDialect('schedule workers', (dialect) => {
  const service = useTestService(dialect);

  it('creates a due account once, PROCESSED with STARTED and COMPLETED events', async () => {
    const id = await scheduleAccount(service, 'W-1');
    const before = await accountCount(service.db);
    const pool = poolOf(service);
    expect(await drain(pool)).toBe(1);

    const row = await scheduleRow(service.db, id);
    expect(row).toMatchObject({
      status: 'PROCESSED',
      attempts: 1,
      error_code: null,
      claim_id: null,
    });
    const account = await readAccount(service.db, row.service_account_number ?? '');
    expect(account?.externalAccountNumber).toBe('W-1');
    expect(await accountCount(service.db)).toBe(before + 1);
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .select(['state', 'service_account_number'])
      .where('external_account_number', '=', 'W-1')
      .executeTakeFirstOrThrow();
    expect(process).toEqual({
      state: 'completed',
      service_account_number: row.service_account_number,
    });
    expect(await eventNames(service.db, 'DEMO', 'W-1')).toEqual(['STARTED', 'COMPLETED']);

    // Nothing is left to claim, and a second pool creates nothing more.
    expect(await drain(poolOf(service))).toBe(0);
    expect(await accountCount(service.db)).toBe(before + 1);
  });

  it('leaves a schedule whose window has not opened untouched', async () => {
    const id = await scheduleAccount(service, 'W-FUTURE', {
      windowStart: Date.now() + 3_600_000,
      windowEnd: Date.now() + 7_200_000,
    });
    const before = await accountCount(service.db);
    await drain(poolOf(service));
    expect(await scheduleRow(service.db, id)).toMatchObject({ status: 'PENDING', attempts: 0 });
    expect(await accountCount(service.db)).toBe(before);
    expect(await eventNames(service.db, 'DEMO', 'W-FUTURE')).toEqual([]);
  });

  it('ends a schedule whose window closed before its turn ERRORED with schedule_window_closed', async () => {
    const id = await scheduleAccount(service, 'W-LATE', {
      windowStart: Date.now() - 7_200_000,
      windowEnd: Date.now() - 1,
    });
    const before = await accountCount(service.db);
    const result = await poolOf(service).round();
    expect(result.closed).toBeGreaterThanOrEqual(1);
    expect(await scheduleRow(service.db, id)).toMatchObject({
      status: 'ERRORED',
      error_code: 'schedule_window_closed',
      error_domain: 'SCHEDULING',
      attempts: 0,
    });
    expect(await accountCount(service.db)).toBe(before);
    expect(await eventNames(service.db, 'DEMO', 'W-LATE')).toEqual(['ERRORED']);
    await expectLastEvent(service, 'W-LATE', 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED', {
      code: 'schedule_window_closed',
      errors: [],
      detail: expect.any(String),
      via: 'v2',
    });
  });

  it('ends a dry run DRY_RUN_SUCCEEDED and keeps nothing of the account', async () => {
    const id = await scheduleAccount(service, 'W-DRY', { dryRun: true });
    const before = await rowCounts(service.db);
    await drain(poolOf(service));
    expect(await scheduleRow(service.db, id)).toMatchObject({
      status: 'DRY_RUN_SUCCEEDED',
      service_account_number: null,
    });
    expect(await rowCounts(service.db)).toEqual(before);
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .select('state')
      .where('external_account_number', '=', 'W-DRY')
      .executeTakeFirstOrThrow();
    expect(process.state).toBe('pending');
    expect(await eventNames(service.db, 'DEMO', 'W-DRY')).toEqual(['STARTED', 'DRY_RUN_SUCCEEDED']);
  });

  it('ends a failing creation ERRORED with the first field code, and a failing dry run DRY_RUN_ERRORED', async () => {
    const tariff = (buildMeterPoint().agreements as { tariff_code: string }[])[0]?.tariff_code;
    const creation = await scheduleAccount(service, 'W-BAD');
    const dryRun = await scheduleAccount(service, 'W-BAD-DRY', { dryRun: true });
    await removeReference(service.db, 'tariff', tariff ?? '');
    await service.ctx.platform.refresh();
    const before = await accountCount(service.db);
    try {
      await drain(poolOf(service));
    } finally {
      await importReference(service.db, demoReferenceLines());
      await service.ctx.platform.refresh();
    }
    const failed = {
      error_code: 'tariff_code_not_found',
      error_domain: 'VALIDATION',
      error_detail: expect.stringContaining('supply_addresses.0.meter_points.0.agreements.0'),
      service_account_number: null,
    };
    expect(await scheduleRow(service.db, creation)).toMatchObject({ status: 'ERRORED', ...failed });
    expect(await scheduleRow(service.db, dryRun)).toMatchObject({
      status: 'DRY_RUN_ERRORED',
      ...failed,
    });
    expect(await accountCount(service.db)).toBe(before);
    expect(await eventNames(service.db, 'DEMO', 'W-BAD')).toEqual(['STARTED', 'ERRORED']);
    // The event keeps the refusal's codes, as a refused process request's does.
    const tariffAt = (address: number) =>
      `supply_addresses.${address}.meter_points.0.agreements.0.tariff_code`;
    await expectLastEvent(service, 'W-BAD', 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED', {
      code: 'account_failed_validation',
      errors: [0, 1].map((address) => ({ code: 'tariff_code_not_found', attr: tariffAt(address) })),
      detail: expect.stringContaining(tariffAt(0)),
      via: 'v2',
    });
    // The process is given back, with the failure, so it may be scheduled again.
    const process = await service.db.kysely
      .selectFrom('import_processes')
      .select(['state', 'claim_id', 'last_failure_code'])
      .where('external_account_number', '=', 'W-BAD')
      .executeTakeFirstOrThrow();
    expect(process).toEqual({
      state: 'pending',
      claim_id: null,
      last_failure_code: 'tariff_code_not_found',
    });
  });

  it('ends ERRORED with the published refusal code: skip mark, supplier paused, already imported', async () => {
    const skippedId = await scheduleAccount(service, 'W-SKIP');
    await markSkipped(service, 'W-SKIP');
    await drain(poolOf(service));
    expect(await scheduleRow(service.db, skippedId)).toMatchObject({
      status: 'ERRORED',
      error_code: 'account_import_process_skipped',
      error_domain: 'SCHEDULING',
    });

    const pausedId = await scheduleAccount(service, 'W-PAUSED');
    await updateSupplier(service, 'DEMO', { status: 'Paused' });
    try {
      await drain(poolOf(service));
    } finally {
      await updateSupplier(service, 'DEMO', { status: 'Ongoing' });
    }
    expect(await scheduleRow(service.db, pausedId)).toMatchObject({
      status: 'ERRORED',
      error_code: 'import_supplier_migration_not_ongoing',
      error_domain: 'SCHEDULING',
    });

    // Scheduled twice (a row written by hand: the API refuses it): the second finds it imported.
    const first = await scheduleAccount(service, 'W-TWICE');
    await drain(poolOf(service));
    const { service_account_number: number } = await scheduleRow(service.db, first);
    await service.db.kysely
      .updateTable('creation_schedules')
      .set({ status: 'PENDING', service_account_number: null })
      .where('process_id', '=', first)
      .execute();
    const before = await accountCount(service.db);
    await drain(poolOf(service));
    expect(await scheduleRow(service.db, first)).toMatchObject({
      status: 'ERRORED',
      error_code: 'account_import_process_already_imported',
      error_detail: expect.stringContaining(number ?? 'no number'),
      error_domain: 'CREATION',
    });
    expect(await accountCount(service.db)).toBe(before);
  });
});
