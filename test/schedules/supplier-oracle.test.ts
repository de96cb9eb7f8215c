/**
 * Scheduling under another organisation's supplier code must look, to the caller, exactly as
 * under a code that does not exist (docs/interface.md, Import supplier): the same answer and
 * the same database work, counted in SQL statements. (The time each takes is the benchmark's
 * to measure, not a test's: since 28 November both take the same path after the thread's
 * check, src/schedules/schedules.service.ts, scheduleChecked.)
 */
import { expect, it } from 'vitest';
import { useTestService } from '../helpers/app.js';
import { createOrganisation, obtainToken } from '../helpers/auth.js';
import { describeEachDialect } from '../helpers/databases.js';
import { statementsSentBy } from '../helpers/statements.js';
import { V2, scheduled, teamAccount } from './v2.js';

await describeEachDialect('v2 scheduling under a code the caller may not use', (dialect) => {
  const service = useTestService(dialect);

  it('answers and works as for a code that does not exist', async () => {
    // The demo supplier is in use: its organisation scheduled an account with it.
    await scheduled(service, 'OR-1');
    const { apiKey } = await createOrganisation(service.db, 'another', ['BETA']);
    const { token } = await obtainToken(service.app, apiKey);
    let number = 0;
    const scheduleAs = (supplier: string) =>
      service.app.inject({
        method: 'POST',
        url: V2.schedule,
        headers: { authorization: `Token ${token}` },
        payload: {
          payload: teamAccount(`OR-${supplier}-${++number}`, { import_supplier: supplier }),
          task_params: {},
        },
      });
    /** The answer, and the statements it took once warm. */
    const measured = async (supplier: string) => {
      await scheduleAs(supplier);
      await scheduleAs(supplier);
      let answer: Awaited<ReturnType<typeof scheduleAs>> | undefined;
      const statements = await statementsSentBy(async () => {
        answer = await scheduleAs(supplier);
      });
      return { status: answer?.statusCode, codes: answer?.json().errors, statements };
    };
    const inUse = await measured('DEMO');
    const unknown = await measured('NOPE');
    expect(inUse.status).toBe(400);
    expect(inUse.codes).toEqual([
      expect.objectContaining({
        code: 'import_supplier_not_found',
        attr: 'payload.import_supplier',
      }),
    ]);
    expect(inUse).toEqual(unknown);
  });
});
