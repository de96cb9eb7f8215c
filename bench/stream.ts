/**
 * The unpaged list: rows inserted straight into import_processes with SQL (half pending, half
 * completed), then the whole list read over HTTP while the service's RSS is sampled. They have
 * no version rows (no payload): only the lists read them, and a list reads no payload.
 */
import { request } from 'node:http';
import { seedPostgres, seedSqlite, seedTimed } from './seed.js';
import { rssMb, sampleRss } from './processes.js';

const BASE_TIME = Date.UTC(2025, 0, 1);

/** Inserts `count` processes for `supplierCode`; returns the seconds it took. */
export async function insertListRows(
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

function insertSqlite(path: string, supplierCode: string, count: number): void {
  seedSqlite(path, supplierCode, count, (db, supplierId) => {
    const insert = db.prepare(
      `INSERT INTO import_processes (supplier_id, external_account_number, state, version,
         first_staged_at, last_staged_at, service_account_number, account_created_at)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
    );
    return (i) => {
      const completed = i % 2 === 0;
      const at = BASE_TIME + i;
      insert.run(
        supplierId,
        `S${String(i).padStart(8, '0')}`,
        completed ? 'completed' : 'pending',
        at,
        at,
        completed ? `A-S${i}` : null,
        completed ? at : null,
      );
    };
  });
}

function insertPostgres(url: string, supplierCode: string, count: number): Promise<void> {
  return seedPostgres(url, supplierCode, 'import_processes', async (client, id) => {
    await client.query(
      `INSERT INTO import_processes (supplier_id, external_account_number, state, version,
         first_staged_at, last_staged_at, service_account_number, account_created_at)
       SELECT $1::bigint, 'S' || lpad(g::text, 8, '0'),
              CASE WHEN g % 2 = 0 THEN 'completed' ELSE 'pending' END, 1,
              $2::bigint + g, $2::bigint + g,
              CASE WHEN g % 2 = 0 THEN 'A-S' || g END,
              CASE WHEN g % 2 = 0 THEN $2::bigint + g END
       FROM generate_series(0, $3::int - 1) AS g`,
      [id, BASE_TIME, count],
    );
  });
}

export interface StreamResult {
  status: number;
  items: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  /** The body ended with `]`: the list was complete. */
  complete: boolean;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/** GETs `url` and counts items (one `{` each) as the body streams in. */
export function streamList(
  url: string,
  headers: Record<string, string>,
  pid: number,
): Promise<StreamResult> {
  const rssBeforeMb = rssMb(pid);
  const sampler = sampleRss(pid);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (response) => {
      const firstByteMs = performance.now() - started;
      let items = 0;
      let bytes = 0;
      let lastByte = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(123); at !== -1; at = chunk.indexOf(123, at + 1)) items += 1;
        lastByte = chunk[chunk.length - 1] ?? lastByte;
      });
      response.on('end', () => {
        const seconds = (performance.now() - started) / 1000;
        resolve({
          status: response.statusCode ?? 0,
          items,
          bytes,
          seconds,
          firstByteMs,
          complete: lastByte === 93,
          rssBeforeMb,
          rssPeakMb: sampler.stop(),
        });
      });
      response.on('error', (error) => {
        sampler.stop();
        reject(error);
      });
    });
    req.setTimeout(600_000, () => req.destroy(new Error('list stream timed out')));
    req.on('error', (error) => {
      sampler.stop();
      reject(error);
    });
    req.end();
  });
}
