/**
 * The status of an account marked to be skipped: UNKNOWN (DESIGN.md), staged or not, with the
 * mark, so that a migration engineer can tell it from an account still to be processed.
 */
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../helpers/databases.js';
import { markSkipped, PATHS, processDemoAccount, useTestService } from '../../helpers/app.js';
import { buildAccount } from '../../account/factory.js';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

await describeEachDialect('status of a skipped account', (dialect) => {
  const service = useTestService(dialect);
  const status = (external: string) =>
    service.request({ method: 'GET', url: PATHS.status('DEMO', external) });
  const stage = (external: string) =>
    service.request({
      method: 'POST',
      url: PATHS.stage,
      payload: buildAccount({ external_account_number: external }),
    });

  it('reads UNKNOWN with its mark, though nothing was staged for it', async () => {
    await markSkipped(service, 'K-NEVER', 'closed before migration');
    const response = await status('K-NEVER');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      import_supplier: 'DEMO',
      external_account_number: 'K-NEVER',
      status: 'UNKNOWN',
      service_account_number: '',
      skip_mark: {
        reason: 'closed before migration',
        marked_at: expect.stringMatching(ISO_SECONDS),
      },
    });
  });

  it('shows the mark on an account staged before it, and none on one not marked', async () => {
    expect((await stage('K-STAGED')).statusCode).toBe(201);
    await markSkipped(service, 'K-STAGED');
    expect((await status('K-STAGED')).json()).toMatchObject({
      status: 'UNKNOWN',
      skip_mark: { reason: null },
    });
    expect((await stage('K-PLAIN')).statusCode).toBe(201);
    expect((await status('K-PLAIN')).json()).not.toHaveProperty('skip_mark');
    // Marked after its creation (a window the docs describe), it reads as created, with its mark.
    expect((await stage('K-DONE')).statusCode).toBe(201);
    const number = (await processDemoAccount(service, 'K-DONE')).json().service_account_number;
    await markSkipped(service, 'K-DONE');
    expect((await status('K-DONE')).json()).toMatchObject({
      status: 'COMPLETED',
      service_account_number: number,
      skip_mark: { reason: null },
    });
  });

  it('still answers 404 for an account neither staged nor marked', async () => {
    const response = await status('K-NOTHING');
    expect([response.statusCode, response.json().code]).toEqual([
      404,
      'import_process_does_not_exist',
    ]);
  });
});
