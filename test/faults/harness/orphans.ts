/**
 * Claims whose holder died (killed, or lost its database mid-creation): the status endpoint
 * may report IN_PROGRESS while the lease lives, never after it, and the account can then be
 * processed.
 */
import type { Client } from './client.js';
import { SUPPLIER, TEAM } from './fixture.js';
import type { Ledger } from './ledger.js';
import { waitFor } from './service.js';
import { PROCESS_PATH, statusPath } from './workload.js';

export function processBody(external: string) {
  return {
    external_account_number: external,
    import_supplier_code: SUPPLIER,
    operations_team_name: TEAM,
  };
}

/**
 * Polls the status of every orphaned account until none reports IN_PROGRESS (within the lease
 * plus `slackMs`), then processes each one; returns how long the wait took and the statuses the
 * processing got (201 expected for each).
 */
export async function recoverOrphans(
  client: Client,
  ledger: Ledger,
  orphaned: readonly string[],
  leaseSeconds: number,
  slackMs = 3_000,
): Promise<{ waitedMs: number; statuses: number[] }> {
  const waitedMs = await waitFor(
    'orphaned claims to stop reporting IN_PROGRESS',
    async () => {
      for (const external of orphaned) {
        const reply = await client.send('GET', statusPath(external));
        ledger.record('status', `status ${external}`, reply);
        if (
          reply.kind !== 'reply' ||
          (reply.json as { status?: string }).status === 'IN_PROGRESS'
        ) {
          return false;
        }
      }
      return true;
    },
    leaseSeconds * 1000 + slackMs,
    100,
  );
  const statuses: number[] = [];
  for (const external of orphaned) {
    const reply = await client.send('POST', PROCESS_PATH, processBody(external));
    ledger.record('process', `process ${external} after its lease`, reply);
    statuses.push(reply.kind === 'reply' ? reply.status : 0);
    if (reply.kind === 'reply' && reply.status === 201) {
      const { service_account_number } = reply.json as { service_account_number: string };
      ledger.acknowledgeAccount(external, service_account_number);
    }
  }
  return { waitedMs, statuses };
}
