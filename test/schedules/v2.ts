/** The v2 paths, bodies and direct schedule changes the schedule tests share. */
import { expect } from 'vitest';
import type { ScheduleStatus } from '../../src/db/database.js';
import type { TestService } from '../helpers/app.js';
import { buildAccount } from '../account/factory.js';

type Json = Record<string, unknown>;

export const V2 = {
  schedule: '/v2/data-import/accounts/',
  validate: '/v2/data-import/accounts/validate/',
  status: (supplier: string, external: string) =>
    `/v2/data-import/accounts/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
  cancel: (supplier: string, external: string) =>
    `/v2/data-import/accounts/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/cancel/`,
};

/** A demo account (supplier DEMO) naming the team Migrations. */
export const teamAccount = (external: string, overrides: Json = {}): Json =>
  buildAccount({
    external_account_number: external,
    operations_team_name: 'Migrations',
    ...overrides,
  });

/** An ISO datetime `ms` from now. */
export const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

export const HOUR = 3600 * 1000;
export const DAY = 24 * HOUR;

/** Schedules `payload` with `taskParams`. */
export function schedule(service: TestService, payload: Json, taskParams: Json = {}) {
  return service.request({
    method: 'POST',
    url: V2.schedule,
    payload: { payload, task_params: taskParams },
  });
}

/** Schedules a demo account that must be taken. */
export async function scheduled(service: TestService, external: string, taskParams: Json = {}) {
  const response = await schedule(service, teamAccount(external), taskParams);
  expect(response.statusCode, response.body).toBe(201);
}

export function statusOf(service: TestService, external: string, supplier = 'DEMO') {
  return service.request({ method: 'GET', url: V2.status(supplier, external) });
}

/** The schedule row of a demo account. */
export function scheduleRow(service: TestService, external: string) {
  return service.db.kysely
    .selectFrom('creation_schedules')
    .selectAll()
    .where('external_account_number', '=', external)
    .executeTakeFirst();
}

/** Sets a schedule's status directly, as a worker would (a live lease when IN_PROGRESS). */
export async function setScheduleStatus(
  service: TestService,
  external: string,
  status: ScheduleStatus,
  leaseUntil: number | null = status === 'IN_PROGRESS' ? Date.now() + HOUR : null,
): Promise<void> {
  await service.db.kysely
    .updateTable('creation_schedules')
    .set({ status, lease_until: leaseUntil, claim_id: status === 'IN_PROGRESS' ? 'w-1' : null })
    .where('external_account_number', '=', external)
    .execute();
}

/** The `{attr, code}` of each error of a 400 answer. */
export function errorsOf(response: { statusCode: number; body: string; json(): unknown }) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as { errors: { attr: string | null; code: string }[] };
  return body.errors.map(({ attr, code }) => ({ attr, code }));
}
