import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('VALIDATION_THREADS', () => {
  it('defaults on SQLite to one thread per core beside the event loop, at most four', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).validationThreads).toBe(
      Math.min(4, availableParallelism() - 1),
    );
  });

  it('defaults to none on PostgreSQL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' });
    expect(config.validationThreads).toBe(0);
  });

  it.each([
    ['0', 0],
    [' 3 ', 3],
    ['64', 64],
  ])('accepts %j', (value, threads) => {
    expect(loadConfig({ VALIDATION_THREADS: value }).validationThreads).toBe(threads);
  });

  it.each(['-1', '65', '1.5', 'two', '0x10', '1e1', '1.0', '+3', '3 4'])('refuses %j', (value) => {
    expect(() => loadConfig({ VALIDATION_THREADS: value })).toThrow(
      new ConfigError(`VALIDATION_THREADS must be an integer from 0 to 64, got "${value}"`),
    );
  });
});

describe('PORT', () => {
  it('is read as decimal digits', () => {
    expect(loadConfig({ PORT: ' 8080 ' }).port).toBe(8080);
  });

  it.each(['0x10', '1e3', '80.0', '-80', '65536'])('refuses %j', (value) => {
    expect(() => loadConfig({ PORT: value })).toThrow(
      new ConfigError(`PORT must be an integer from 0 to 65535, got "${value}"`),
    );
  });
});

describe('DATABASE_URL', () => {
  it.each([
    [undefined, 'sqlite:./data/account-import.db'],
    [' sqlite:/tmp/x.db ', 'sqlite:/tmp/x.db'],
    ['postgres://postgres@127.0.0.1:5432/postgres', 'postgres://postgres@127.0.0.1:5432/postgres'],
    ['postgresql://db.example/import', 'postgresql://db.example/import'],
    ['postgres:///import?host=/run/postgresql', 'postgres:///import?host=/run/postgresql'],
  ])('accepts %j', (value, url) => {
    expect(loadConfig(value === undefined ? {} : { DATABASE_URL: value }).databaseUrl).toBe(url);
  });

  it.each([
    ['', /set but empty/],
    ['  ', /set but empty/],
    ['sqlite:', /file path after "sqlite:"/],
    ['postgres://', /names no PostgreSQL host/],
    ['postgres://[bad/x', /not a valid postgres:\/\/ URL/],
    ['mysql://x/y', /must start with "sqlite:" or "postgres:\/\/"/],
  ])('refuses %j', (value, message) => {
    expect(() => loadConfig({ DATABASE_URL: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: value })).toThrow(message);
  });
});

describe('DOCUMENT_BUCKET', () => {
  it.each([
    [undefined, 'account-documents'],
    ['media.example-1', 'media.example-1'],
    ['My_Bucket', 'My_Bucket'],
  ])('accepts %j', (value, bucket) => {
    expect(loadConfig(value === undefined ? {} : { DOCUMENT_BUCKET: value }).documentBucket).toBe(
      bucket,
    );
  });

  it.each(['my bucket', 'bucket/', '/bucket', 'a\u0000b', '-bucket', 'b'.repeat(256)])(
    'refuses %j',
    (value) => {
      expect(() => loadConfig({ DOCUMENT_BUCKET: value })).toThrow(/DOCUMENT_BUCKET must be/);
    },
  );
});

describe('SQLITE_SYNCHRONOUS', () => {
  it.each([
    [undefined, 'NORMAL'],
    ['normal', 'NORMAL'],
    ['FULL', 'FULL'],
  ])('reads %j as %s', (value, mode) => {
    expect(loadConfig({ SQLITE_SYNCHRONOUS: value }).sqliteSynchronous).toBe(mode);
  });

  // OFF would lose committed writes in a crash; EXTRA is not a documented choice.
  it.each(['OFF', 'off', 'EXTRA', '1'])('refuses %j', (value) => {
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: value })).toThrow(
      'SQLITE_SYNCHRONOUS must be one of NORMAL, FULL',
    );
  });
});

describe('organisation shares', () => {
  it('default to 64 requests in flight and 2 unpaged list streams per organisation', () => {
    const config = loadConfig({});
    expect(config.organisationRequestsInFlight).toBe(64);
    expect(config.organisationListStreams).toBe(1);
  });

  it('are read as whole numbers of at least 1', () => {
    const config = loadConfig({
      ORGANISATION_REQUESTS_IN_FLIGHT: '8',
      ORGANISATION_LIST_STREAMS: '3',
    });
    expect([config.organisationRequestsInFlight, config.organisationListStreams]).toEqual([8, 3]);
    expect(() => loadConfig({ ORGANISATION_LIST_STREAMS: '0' })).toThrow(
      new ConfigError('ORGANISATION_LIST_STREAMS must be an integer from 1 to 10000, got "0"'),
    );
  });
});

describe('schedule workers', () => {
  it('default to 8 creations at once, a 1 s poll and a 60 s lease', () => {
    const config = loadConfig({});
    expect([config.workerConcurrency, config.workerPollMs, config.workerLeaseMs]).toEqual([
      8, 1_000, 60_000,
    ]);
  });

  it('are read as whole numbers in their ranges; 0 workers turns the pool of serve off', () => {
    const config = loadConfig({
      WORKER_CONCURRENCY: '0',
      WORKER_POLL_MS: '250',
      WORKER_LEASE_MS: '5000',
    });
    expect([config.workerConcurrency, config.workerPollMs, config.workerLeaseMs]).toEqual([
      0, 250, 5_000,
    ]);
    expect(() => loadConfig({ WORKER_POLL_MS: '5' })).toThrow(
      new ConfigError('WORKER_POLL_MS must be an integer from 10 to 3600000, got "5"'),
    );
    expect(() => loadConfig({ WORKER_LEASE_MS: '999' })).toThrow(
      new ConfigError('WORKER_LEASE_MS must be an integer from 1000 to 86400000, got "999"'),
    );
    expect(() => loadConfig({ WORKER_CONCURRENCY: '-1' })).toThrow(ConfigError);
  });
});

describe('EVENT_RETENTION_DAYS', () => {
  it('defaults to keeping every event, and is read as whole days up to 36500', () => {
    expect(loadConfig({}).eventRetentionDays).toBe(0);
    expect(loadConfig({ EVENT_RETENTION_DAYS: '90' }).eventRetentionDays).toBe(90);
    for (const bad of ['-1', '36501', '1.5', 'ninety']) {
      expect(() => loadConfig({ EVENT_RETENTION_DAYS: bad }), bad).toThrow(ConfigError);
    }
  });
});
