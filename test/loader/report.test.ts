import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriter, errorsOf, reportLine, type Failure } from '../../src/loader/report.js';

describe('report lines', () => {
  it('is one JSON object a line with the documented keys in order', () => {
    const line = reportLine({
      line: 12,
      external_account_number: 'ACME-1',
      step: 'stage',
      status: 400,
      errors: [{ code: 'invalid_phone_number', attr: 'customers.0.mobile', detail: 'Bad.' }],
    });
    expect(line).toBe(
      '{"line":12,"external_account_number":"ACME-1","step":"stage","status":400,' +
        '"errors":[{"code":"invalid_phone_number","attr":"customers.0.mobile","detail":"Bad."}]}\n',
    );
  });

  it('takes the error objects of an answer, or its top-level code when it has none', () => {
    const validation = {
      status: 400,
      headers: {},
      body: {
        detail: 'Invalid.',
        code: 'account_failed_validation',
        errors: [
          {
            detail: 'Enter a valid UK postcode.',
            code: 'invalid_postcode',
            attr: 'billing_address.postal_code',
          },
          { detail: 'x', code: 'operations_team_name_does_not_exist', attr: null },
        ],
      },
    };
    expect(errorsOf(validation)).toEqual([
      {
        code: 'invalid_postcode',
        attr: 'billing_address.postal_code',
        detail: 'Enter a valid UK postcode.',
      },
      { code: 'operations_team_name_does_not_exist', attr: null, detail: 'x' },
    ]);
    expect(
      errorsOf({
        status: 503,
        headers: {},
        body: { detail: 'Down.', code: 'service_unavailable' },
      }),
    ).toEqual([{ code: 'service_unavailable', attr: null, detail: 'Down.' }]);
    expect(errorsOf({ status: 502, headers: {}, body: 'Bad Gateway' })).toEqual([
      { code: 'http_502', attr: null, detail: 'Bad Gateway' },
    ]);
  });

  it('writes the lines to the report file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loader-report-'));
    try {
      const path = join(dir, 'report.ndjson');
      const report = await ReportWriter.open(path);
      report.write({
        line: 1,
        external_account_number: null,
        step: 'parse',
        status: null,
        errors: [],
      });
      report.write({
        line: 2,
        external_account_number: 'A',
        step: 'process',
        status: 409,
        errors: [],
      });
      await report.close();
      const lines = readFileSync(path, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.line, l.step, l.status])).toEqual([
        [1, 'parse', null],
        [2, 'process', 409],
      ]);
      await expect(ReportWriter.open(join(dir, 'missing', 'r.ndjson'))).rejects.toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync('/dev/full'))(
    'keeps a failed write as its error, for the run to stop on, rather than throwing it',
    async () => {
      const report = await ReportWriter.open('/dev/full');
      const failure: Failure = {
        line: 1,
        external_account_number: null,
        step: 'parse',
        status: null,
        errors: [],
      };
      report.write(failure);
      const error = await report.close();
      expect(error).toMatchObject({ code: 'ENOSPC' });
      expect(report.failed).toBe(error);
      // Lines after the failure are dropped, not written nor thrown.
      report.write({ ...failure, line: 2 });
    },
  );
});
