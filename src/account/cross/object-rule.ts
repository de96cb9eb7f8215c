/**
 * The shape of an object rule, and the merging of the rules of several topics into one rule
 * per schema (../object-rules.ts).
 */
import type { Parent, Run } from '../../payload/validators.js';

export interface ObjectRule {
  /** Every code the rule may report (the field error catalogue must hold each). */
  readonly codes: readonly string[];
  readonly check: (out: Parent, prefix: string, run: Run, input: Parent) => void;
}

/** The object rules of one topic, by published schema name. */
export type ObjectRules = Readonly<Record<string, ObjectRule>>;

/** One rule per schema that runs the rules of every topic naming it, in the order given. */
export function mergeObjectRules(topics: readonly ObjectRules[]): Record<string, ObjectRule> {
  const bySchema = new Map<string, ObjectRule[]>();
  for (const topic of topics) {
    for (const [schema, rule] of Object.entries(topic)) {
      const rules = bySchema.get(schema) ?? [];
      rules.push(rule);
      bySchema.set(schema, rules);
    }
  }
  const merged: Record<string, ObjectRule> = {};
  for (const [schema, rules] of bySchema) {
    merged[schema] =
      rules.length === 1
        ? (rules[0] as ObjectRule)
        : {
            codes: [...new Set(rules.flatMap((rule) => rule.codes))],
            check: (out, prefix, run, input) => {
              for (const rule of rules) rule.check(out, prefix, run, input);
            },
          };
  }
  return merged;
}

/** One check of an object rule; several make a rule (`rule`). */
export type Check = ObjectRule['check'];

/** One rule running `checks` in order. */
export function rule(codes: readonly string[], ...checks: Check[]): ObjectRule {
  return {
    codes,
    check: (out, prefix, run, input) => {
      for (const check of checks) check(out, prefix, run, input);
    },
  };
}
