/** Builders of the field rules of ./field-rules.ts: each names the codes it may report. */
import { isDocumentPath } from '../payload/rules/document-path.js';
import { isTestDomain } from '../payload/rules/email.js';
import {
  INVALID,
  fail,
  uniqueBy,
  type Parent,
  type Run,
  type Type,
} from '../payload/validators.js';

/** Checks a field's normalised value; returns it (perhaps normalised further) or INVALID. */
export type RuleCheck = (value: unknown, path: string, run: Run, parent: Parent) => unknown;

export interface FieldRule {
  readonly codes: readonly string[];
  readonly check: RuleCheck;
}

/** The check of an existing Type (postcode, phone, …) as a rule on a string already read. */
export const fromType = (t: Type<unknown>, ...codes: string[]): FieldRule => ({
  codes,
  check: t.check,
});

/** The string matches `re`, else `code`. */
export function matching(re: RegExp, code: string, detail: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) =>
      typeof value === 'string' && re.test(value) ? value : fail(run, path, code, detail),
  };
}

/** A date (`YYYY-MM-DD`) not after today, or a datetime not after now (UTC). */
export function notInFuture(code: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) => {
      const s = value as string;
      const limit = s.length === 10 ? run.today : run.now;
      return s > limit ? fail(run, path, code, 'This date may not be in the future.') : s;
    },
  };
}

/** A date not before today (UTC). */
export function notInPast(code: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) =>
      (value as string).slice(0, 10) < run.today
        ? fail(run, path, code, 'This date may not be in the past.')
        : value,
  };
}

/** Not before the sibling `from`, declared (and so checked) earlier in the same object. */
export function notBefore(from: string, code = 'start_date_later_than_end_date'): FieldRule {
  return {
    codes: [code],
    check: (value, path, run, parent) => {
      const start = parent[from];
      return typeof start === 'string' && (value as string) < start
        ? fail(run, path, code, `This date may not be before ${from}.`)
        : value;
    },
  };
}

/** Every item's key (when it has one) differs from the earlier items' keys. */
export function uniqueItems<T>(
  key: (item: T) => string | undefined,
  code: string,
  attr: string | null,
): FieldRule {
  const refine = uniqueBy(key, code, attr, 'This value was already given by an earlier item.');
  return {
    codes: [code],
    check: (value, path, run) => {
      const before = run.errors.length;
      refine(value as T[], path, run);
      return run.errors.length === before ? value : INVALID;
    },
  };
}

/** Both rules, in order; the second sees the first's output. */
export function both(first: FieldRule, second: FieldRule): FieldRule {
  return {
    codes: [...first.codes, ...second.codes],
    check: (value, path, run, parent) => {
      const out = first.check(value, path, run, parent);
      return out === INVALID ? out : second.check(out, path, run, parent);
    },
  };
}

// The published list, plus the reserved example and test domains v1 already refused.
const TEST_ADDRESS = /^(?:test|xxx)@|@test\.com$|@test\.co\.uk$|\.xxx$|\.xx$/i;

/** Not an address kept for tests (`possible_test_email_address`). */
export const notTestAddress: FieldRule = {
  codes: ['possible_test_email_address'],
  check: (value, path, run) => {
    const s = value as string;
    const domain = s.slice(s.lastIndexOf('@') + 1);
    return TEST_ADDRESS.test(s) || isTestDomain(domain)
      ? fail(run, path, 'possible_test_email_address', 'This looks like a test address.')
      : s;
  },
};

/**
 * A document path under the supplier's root (`invalid_document_path`). The published examples
 * also write them without the leading slash: such a path is given one, so that every stored
 * path resolves the same way.
 */
export const documentLocation: FieldRule = {
  codes: ['invalid_document_path'],
  check: (value, path, run) => {
    const s = value as string;
    const rooted = s.startsWith('/') ? s : `/${s}`;
    return isDocumentPath(rooted)
      ? rooted
      : fail(
          run,
          path,
          'invalid_document_path',
          'Expected a path such as statements/2024/S-1.pdf.',
        );
  },
};

/** An integer from `min` to `max`, else `code`. */
export function between(min: number, max: number, code: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) =>
      (value as number) < min || (value as number) > max
        ? fail(run, path, code, `Expected a number from ${min} to ${max}.`)
        : value,
  };
}

/** A list of exactly `count` items, else `code`. */
export function exactly(count: number, code: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) =>
      (value as unknown[]).length === count
        ? value
        : fail(run, path, code, `Expected exactly ${count} items.`),
  };
}
