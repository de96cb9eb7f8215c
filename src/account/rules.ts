/** Builders of the field rules of ./field-rules.ts: each names the codes it may report. */
import { isDocumentPath } from '../payload/rules/document-path.js';
import { isTestDomain } from '../payload/rules/email.js';
import { asciiUpperCase } from '../payload/scalars.js';
import {
  INVALID,
  fail,
  type JsonSchema,
  type Parent,
  type Run,
  type Type,
} from '../payload/validators.js';

/** Checks a field's normalised value; returns it (perhaps normalised further) or INVALID. */
export type RuleCheck = (value: unknown, path: string, run: Run, parent: Parent) => unknown;

export interface FieldRule {
  readonly codes: readonly string[];
  readonly check: RuleCheck;
  /**
   * What the rule adds to the field's published schema in the OpenAPI document, where a
   * client can check it too (a pattern; the conformance tests compare the published facts).
   */
  readonly schema?: JsonSchema;
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

/** The string normalised by `normalise`, else (undefined) `code`. */
export function normalisedBy(
  normalise: (s: string) => string | undefined,
  code: string,
  detail: string,
): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) => normalise(value as string) ?? fail(run, path, code, detail),
  };
}

/** An ASCII string in upper case that then matches `re`, else `code`. */
export function upperCaseMatching(re: RegExp, code: string, detail: string): FieldRule {
  return normalisedBy(
    (s) => {
      const upper = asciiUpperCase(s);
      return upper !== undefined && re.test(upper) ? upper : undefined;
    },
    code,
    detail,
  );
}

/** A flag that may not be true: while it is, the import is refused with `code`. */
export function refusedWhileTrue(code: string, detail: string): FieldRule {
  return {
    codes: [code],
    check: (value, path, run) => (value === true ? fail(run, path, code, detail) : value),
  };
}

/** A list's items as checked: an item that failed its own checks is `undefined`. */
export type Items<T> = readonly (T | undefined)[];

/** A rule comparing a list's items; the list is INVALID when `compare` reported a problem. */
export function listRule<T>(
  codes: readonly string[],
  compare: (items: Items<T>, path: string, run: Run) => void,
): FieldRule {
  return {
    codes,
    check: (value, path, run) => {
      const before = run.errors.length;
      compare(value as Items<T>, path, run);
      return run.errors.length === before ? value : INVALID;
    },
  };
}

/** One value a list rule compares, and where it sits below the list (`1.registers.0.tpr`). */
export interface Entry {
  readonly key: string;
  readonly at: string;
}

/**
 * Every entry whose key the earlier entries already gave `times(key)` times (once, unless
 * said otherwise) is reported at `<list>.<at>`. The entries of an item may come from lists
 * nested in it, so that one rule covers, say, the registers of every meter of a meter point.
 */
export function uniqueEntries<T>(
  code: string,
  entriesOf: (item: T, index: number) => Iterable<Entry>,
  times: (key: string) => number = () => 1,
): FieldRule {
  return listRule<T>([code], (items, path, run) => {
    const seen = new Map<string, number>();
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item === undefined) continue;
      for (const { key, at } of entriesOf(item, i)) {
        const count = seen.get(key) ?? 0;
        if (count >= times(key)) {
          fail(run, `${path}.${at}`, code, 'This value was already given by an earlier item.');
        } else seen.set(key, count + 1);
      }
    }
  });
}

/** Every item's key (when it has one) differs from the earlier items' keys. */
export function uniqueItems<T>(
  key: (item: T) => string | undefined,
  code: string,
  attr: string | null,
): FieldRule {
  const suffix = attr === null ? '' : `.${attr}`;
  return uniqueEntries<T>(code, (item, i) => {
    const k = key(item);
    return k === undefined ? [] : [{ key: k, at: `${i}${suffix}` }];
  });
}

/** Either every item of the list has `field` or none has (`code`, at the list). */
export function allOrNone(field: string, code: string, detail: string): FieldRule {
  return listRule<Parent>([code], (items, path, run) => {
    const given = items.filter((item) => item !== undefined);
    const withField = given.filter((item) => item[field] !== undefined).length;
    if (withField > 0 && withField < given.length) fail(run, path, code, detail);
  });
}

/** At most `max` items; each one past it is reported (`code`, at the item). */
export function atMost(max: number, code: string, detail: string): FieldRule {
  return listRule<unknown>([code], (items, path, run) => {
    for (let i = max; i < items.length; i++) fail(run, `${path}.${i}`, code, detail);
  });
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

/** Every rule on the same value (each reports its own problems); INVALID when any failed. */
export function allOf(...rules: FieldRule[]): FieldRule {
  return {
    codes: rules.flatMap((rule) => rule.codes),
    check: (value, path, run, parent) => {
      let out = value;
      for (const rule of rules) if (rule.check(value, path, run, parent) === INVALID) out = INVALID;
      return out;
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
