/**
 * The account timeline under a large event log: `count` events inserted straight into
 * account_events with SQL, ten per account of the supplier (numbers `E00000000` …), then one
 * account's timeline read over HTTP, cycling over the accounts.
 */
import { seedPostgres, seedSqlite, seedTimed } from './seed.js';
import type { Request } from 'autocannon';

const BASE_TIME = Date.UTC(2025, 0, 1);
/** Events per account in the seeded log. */
export const EVENTS_PER_ACCOUNT = 10;

const accountNumber = (i: number) => `E${String(i).padStart(8, '0')}`;

/** Inserts `count` events for `supplierCode`; returns the seconds it took. */
export async function insertEvents(
  databaseUrl: string,
  supplierCode: string,
  count: number,
): Promise<number> {
  return seedTimed(
    databaseUrl,
    (path) => insertSqlite(path, supplierCode, count),
    (url) => insertPostgres(url, supplierCode, count),
  );
}

// The events interleave their accounts, as a real log does: event g belongs to account
// g mod (count / 10), so one account's events lie far apart in the table.
function insertSqlite(path: string, supplierCode: string, count: number): void {
  const accounts = Math.max(1, Math.floor(count / EVENTS_PER_ACCOUNT));
  seedSqlite(path, supplierCode, count, (db, supplierId) => {
    const insert = db.prepare(
      `INSERT INTO account_events (supplier_id, external_account_number, event, occurred_at, data)
       VALUES (?, ?, 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED', ?, ?)`,
    );
    return (g) => {
      const version = Math.floor(g / accounts) + 1;
      const data = `{"version":${version},"created":${version === 1}}`;
      insert.run(supplierId, accountNumber(g % accounts), BASE_TIME + g, data);
    };
  });
}

function insertPostgres(url: string, supplierCode: string, count: number): Promise<void> {
  const accounts = Math.max(1, Math.floor(count / EVENTS_PER_ACCOUNT));
  return seedPostgres(url, supplierCode, 'account_events', async (client, id) => {
    await client.query(
      `INSERT INTO account_events (supplier_id, external_account_number, event, occurred_at, data)
       SELECT $1::bigint, 'E' || lpad((g % $4::int)::text, 8, '0'),
              'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED', $2::bigint + g,
              json_build_object('version', g / $4::int + 1, 'created', g < $4::int)::text
       FROM generate_series(0, $3::int - 1) AS g`,
      [id, BASE_TIME, count, accounts],
    );
  });
}

/** GETs of the timelines of the seeded accounts, one after the other. */
export function timelineRequests(
  headers: Record<string, string>,
  supplierCode: string,
  count: number,
): Request[] {
  const accounts = Math.max(1, Math.floor(count / EVENTS_PER_ACCOUNT));
  let next = 0;
  return [
    {
      method: 'GET',
      headers,
      setupRequest: (request) => {
        const number = accountNumber((next * 7919) % accounts);
        next += 1;
        request.path = `/v2/data-import/accounts/${supplierCode}/${number}/events/`;
        return request;
      },
    },
  ];
}
