/**
 * A claim that committed though its answer was lost (the connection broke as PostgreSQL sent
 * it) is given back, instead of holding the account, and a concurrency slot, until its lease
 * runs out. On SQLite the claim is written in the service's own process, and its answer cannot
 * be lost apart from its commit.
 */
import { describe, expect, it } from 'vitest';
import { dialectEnabled } from '../../helpers/databases.js';
import { PATHS, useTestService, processDemoAccount, processThrough } from '../../helpers/app.js';
import { buildAccount } from '../../account/factory.js';

/** Only the claim statement updates an import process and returns something. */
const isClaim = (sql: string) =>
  sql.startsWith('update "import_processes"') && sql.includes(' returning ');

describe.skipIf(!(await dialectEnabled('postgres')))(
  'a claim whose answer is lost [postgres]',
  () => {
    const service = useTestService('postgres');

    it('gives the claim back, so the account is neither held nor stuck', async () => {
      const external = 'LOST-CLAIM-1';
      const staged = await service.request({
        method: 'POST',
        url: PATHS.stage,
        payload: buildAccount({ external_account_number: external }),
      });
      expect(staged.statusCode).toBe(201);
      let lost = 0;
      // The claim runs on the real database; only its answer is replaced by a broken connection.
      const response = await processThrough(service, external, async (sql, run) => {
        const result = await run();
        if (lost === 0 && isClaim(sql)) {
          lost += 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return result;
      });
      expect(lost).toBe(1);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'service_unavailable' });
      const row = await service.db.kysely
        .selectFrom('import_processes')
        .select(['state', 'claim_id', 'lease_until', 'last_failure_code'])
        .where('external_account_number', '=', external)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({
        state: 'pending',
        claim_id: null,
        lease_until: null,
        last_failure_code: 'internal_error',
      });
      // The retry creates the account at once, rather than 409 for the lease's five minutes.
      expect((await processDemoAccount(service, external)).statusCode).toBe(201);
    });
  },
);
