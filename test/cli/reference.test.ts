import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTestDatabase,
  describeEachDialect,
  type TestDatabase,
} from '../helpers/databases.js';
import { json, runCli, runCliWithInput, STACK_LINE } from './run-cli.js';

const TARIFF = { kind: 'tariff', code: 'E-1R', supply_type: 'ELECTRICITY', rate_bands: ['DAY'] };
const PARTICIPANT = {
  kind: 'market_participant',
  code: 'LOND',
  supply_type: 'GAS',
  roles: ['MOP'],
};
const TPR = { kind: 'tpr', code: '00001' };

const ndjson = (...lines: (object | string)[]) =>
  lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n');

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

await describeEachDialect('cli: reference', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const env = () => ({ DATABASE_URL: database.url });
  const cli = (...args: string[]) => runCli(env(), ...args);
  /** A file of these lines in the test's folder; its path. */
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const listed = async () => json<unknown[]>((await cli('reference', 'list', '--json')).stdout);

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dir = mkdtempSync(join(tmpdir(), 'reference-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.destroy();
  });

  it('imports a file, again with nothing changed, then a change from stdin', async () => {
    // CRLF endings and a blank line, as an editor may leave them.
    const path = file('first.ndjson', `${ndjson(TARIFF, TPR, '', PARTICIPANT)}\r\n`);
    const first = await cli('reference', 'import', path);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      'imported reference data: 3 added, 0 changed, 0 unchanged\n' +
        'KIND                ADDED  CHANGED  UNCHANGED\n' +
        'tariff              1      0        0\n' +
        'market_participant  1      0        0\n' +
        'tpr                 1      0        0\n',
    );

    const again = await cli('reference', 'import', path, '--json');
    expect(again.code).toBe(0);
    expect(json(again.stdout)).toEqual({
      added: 0,
      changed: 0,
      unchanged: 3,
      by_kind: {
        tariff: { added: 0, changed: 0, unchanged: 1 },
        market_participant: { added: 0, changed: 0, unchanged: 1 },
        tpr: { added: 0, changed: 0, unchanged: 1 },
      },
    });

    const changed = { ...TARIFF, rate_bands: ['DAY', 'NIGHT'] };
    const piped = await runCliWithInput(env(), ndjson(changed), 'reference', 'import', '-');
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(piped.stdout).toMatch(/^imported reference data: 0 added, 1 changed, 0 unchanged\n/);
  });

  it('lists every entry as a table, or one kind as JSON', async () => {
    const table = await cli('reference', 'list');
    expect(table).toMatchObject({ code: 0, stderr: '' });
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^KIND +CODE +UPDATED +ATTRIBUTES$/);
    expect(lines.slice(1, 4).map((line) => line.split(/ {2,}/))).toEqual([
      [
        'market_participant',
        'LOND',
        expect.stringMatching(TIME),
        '{"supply_type":"GAS","roles":["MOP"]}',
      ],
      [
        'tariff',
        'E-1R',
        expect.stringMatching(TIME),
        '{"supply_type":"ELECTRICITY","rate_bands":["DAY","NIGHT"]}',
      ],
      ['tpr', '00001', expect.stringMatching(TIME)],
    ]);

    const tariffs = await cli('reference', 'list', 'tariff', '--json');
    expect(json(tariffs.stdout)).toEqual([
      {
        kind: 'tariff',
        code: 'E-1R',
        attributes: { supply_type: 'ELECTRICITY', rate_bands: ['DAY', 'NIGHT'] },
        updated_at: expect.stringMatching(TIME),
      },
    ]);
    expect((await cli('reference', 'list', 'campaign')).stdout).toBe(
      'no reference data of kind campaign\n',
    );
  });

  it('refuses a file with a bad line and applies none of it', async () => {
    const before = await listed();
    const path = file(
      'bad.ndjson',
      ndjson(
        { ...TARIFF, code: 'E-2R' },
        { kind: 'tarif', code: 'X' },
        { kind: 'market_participant', code: 'BGT', supply_type: 'GAS' },
        '{"kind": "tpr", "code": 00002}',
        TPR,
        { ...TPR, code: '00003' },
        { ...TPR, code: '00003', colour: 'red' },
        TPR,
      ),
    );
    const refused = await cli('reference', 'import', path, '--json');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    const { error } = json<{ error: string }>(refused.stderr);
    expect(error).toMatch(
      /^nothing imported: 5 lines are refused; line 2: kind: unknown kind "tarif"; /,
    );
    expect(error).toContain('; line 3: roles: This field is required; ');
    expect(error).toContain('; line 4: invalid JSON: ');
    expect(error).toContain('; line 7: colour: This field is not allowed; ');
    expect(error).toMatch(/; line 8: tpr "00001" is given on line 5 already$/);
    expect(await listed()).toEqual(before);

    const missing = await cli('reference', 'import', join(dir, 'missing.ndjson'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read ".*missing\.ndjson": no such file\n$/);
    expect(missing.stderr).not.toMatch(STACK_LINE);
  });

  it('removes an entry, and exits 1 for one that is not there', async () => {
    const removed = await cli('reference', 'remove', 'tpr', '00001');
    expect(removed).toMatchObject({
      code: 0,
      stdout: 'removed tpr "00001" from the reference data\n',
      stderr: '',
    });
    const again = await cli('reference', 'remove', 'tpr', '00001');
    expect(again).toMatchObject({
      code: 1,
      stderr: 'error: tpr "00001" is not in the reference data\n',
    });
    expect(((await listed()) as { kind: string }[]).map((entry) => entry.kind)).toEqual([
      'market_participant',
      'tariff',
    ]);
  });
});
