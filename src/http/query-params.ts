/**
 * Query parameters (the paging of list and feed queries, `limit` and `after`; flags), read the
 * same way everywhere: each problem is a field error naming its parameter, and every problem of
 * a query is refused at once with 400 malformed_request.
 */
import { ServiceError, type FieldError } from '../errors.js';

/** A problem of the query parameter `attr`. */
export const queryProblem = (attr: string, code: string, detail: string): FieldError => ({
  detail,
  code,
  attr,
});

export const isProblem = (value: unknown): value is FieldError =>
  typeof value === 'object' && value !== null && 'code' in value;

/** `limit` as a whole number from 1 to `max`, or its problem. */
export function pageSize(raw: unknown, max: number): number | FieldError {
  if (typeof raw !== 'string')
    return queryProblem('limit', 'invalid_type', 'limit must be given once.');
  // A whole number out of range, however many digits, is reported as out of range.
  if (!/^-?\d+$/.test(raw))
    return queryProblem('limit', 'invalid_type', 'limit must be a whole number.');
  const limit = Number(raw);
  if (limit < 1) return queryProblem('limit', 'min_value', 'limit must be at least 1.');
  if (limit > max) return queryProblem('limit', 'max_value', `limit must be at most ${max}.`);
  return limit;
}

/** A flag `attr` given as `true` or `false`, once; `fallback` when not given; or its problem. */
export function queryFlag(raw: unknown, attr: string, fallback: boolean): boolean | FieldError {
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  const detail = `${attr} must be true or false, given once.`;
  return queryProblem(attr, 'invalid_type', detail);
}

/**
 * The JSON value a cursor `raw` encodes (base64url of JSON), or the problem of `after`. Only
 * the text an encoder writes is taken, which encodes back to itself: Node's decoder skips any
 * character outside base64url (a cursor with junk after it would read as the cursor alone).
 */
export function decodedCursor(raw: unknown): { value: unknown } | FieldError {
  if (typeof raw !== 'string') {
    return queryProblem('after', 'invalid_type', 'after must be given once.');
  }
  const bytes = Buffer.from(raw, 'base64url');
  if (bytes.toString('base64url') === raw) {
    try {
      return { value: JSON.parse(bytes.toString('utf8')) as unknown };
    } catch {
      // reported below
    }
  }
  return invalidCursor();
}

/** The problem of a cursor this service did not issue. */
export const invalidCursor = (): FieldError =>
  queryProblem(
    'after',
    'invalid_cursor',
    'The cursor is not a list position of the form this service issues.',
  );

/** The cursor of `value`: base64url of its JSON. */
export const encodedCursor = (value: unknown): string =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/** The 400 refusing every problem among `values` (at least one). */
export function problemsRefused(values: readonly unknown[]): ServiceError {
  const problems = values.filter(isProblem);
  const detail = problems.map((problem) => problem.detail).join(' ');
  return new ServiceError({ code: 'malformed_request', detail, errors: problems });
}
