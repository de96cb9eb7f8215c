/**
 * The failure report: one NDJSON line per failed account, with what a migration engineer needs
 * to find and fix it (line, account, step, HTTP status, the service's error objects).
 */
import type { HttpResponse } from './http.js';
import { LineFile } from './line-file.js';

/** What a failed record failed at: its text, or the request (`post`: a post-import one). */
export type Step = 'parse' | 'stage' | 'process' | 'post';

export interface ReportedError {
  code: string;
  attr: string | null;
  detail: string;
}

export interface Failure {
  /** Line number in an NDJSON file, element position (from 1) in a JSON array. */
  line: number;
  /** As read from the record (any JSON value), or null when it has none. */
  external_account_number: unknown;
  step: Step;
  /** HTTP status of the answer; null when there was none (parse or network failure). */
  status: number | null;
  errors: ReportedError[];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The error objects of a service answer; a body without any becomes one from its top level. */
export function errorsOf(response: HttpResponse): ReportedError[] {
  const body = (response.body ?? {}) as { code?: unknown; detail?: unknown; errors?: unknown };
  const items = Array.isArray(body.errors) ? (body.errors as Record<string, unknown>[]) : [];
  const errors = items.map((item) => ({
    code: text(item.code) || 'unknown',
    attr: typeof item.attr === 'string' ? item.attr : null,
    detail: text(item.detail),
  }));
  if (errors.length > 0) return errors;
  const raw = typeof response.body === 'string' ? response.body.slice(0, 200) : '';
  return [
    {
      code: text(body.code) || `http_${response.status}`,
      attr: null,
      detail: text(body.detail) || raw,
    },
  ];
}

/** One report line, keys in a fixed order. */
export function reportLine(failure: Failure): string {
  return `${JSON.stringify({
    line: failure.line,
    external_account_number: failure.external_account_number,
    step: failure.step,
    status: failure.status,
    errors: failure.errors.map(({ code, attr, detail }) => ({ code, attr, detail })),
  })}\n`;
}

/** Writes report lines to a file, created (or emptied) when the run starts. */
export class ReportWriter {
  private constructor(private readonly file: LineFile) {}

  /** Opens the file now, so a bad path stops the run before it sends anything. */
  static async open(path: string): Promise<ReportWriter> {
    return new ReportWriter(await LineFile.open(path, 'w'));
  }

  /** The error a write failed with (a full disk), if one did: the run stops taking records. */
  get failed(): Error | undefined {
    return this.file.failed;
  }

  write(failure: Failure): void {
    // Lines are small and few next to the requests that produce them; no need to wait.
    this.file.write(reportLine(failure));
  }

  /** Ends the report; the error a write failed with, if one did. */
  close(): Promise<Error | undefined> {
    return this.file.close();
  }
}
