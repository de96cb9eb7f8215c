/** An import supplier's rule settings as the operator gives them, checked before they are stored. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import {
  SUPPLIER_SETTING_KEYS,
  supplierSetting,
  supplierSettingOption,
  type SupplierSettingKey,
  type SupplierSettings,
} from '../settings/settings.declared.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { displayName } from './operator.rules.js';
import type { SupplierOptions, SupplierSettingInput } from './operator.types.js';
import { teamExists } from './teams.repository.js';

/** Every option that sets a rule setting, `--x` then `--no-x`, in declaration order. */
export const RULE_SETTING_OPTIONS: readonly string[] = SUPPLIER_SETTING_KEYS.flatMap((key) => {
  const option = supplierSettingOption(key);
  return [option, option.replace(/^--/, '--no-')];
});

function ruleSetting(key: SupplierSettingKey, raw: SupplierSettingInput): unknown {
  const takesValue = supplierSetting(key).argument !== undefined;
  if (!takesValue) {
    if (typeof raw !== 'boolean') {
      throw new OperatorError(`${supplierSettingOption(key)} takes no value`);
    }
    return raw;
  }
  // Its `--no-` option: none (for the team, each process request names its own).
  if (raw === false) return null;
  if (raw === true) throw new OperatorError(`${supplierSettingOption(key)} needs a value`);
  return displayName('team', raw);
}

/** The rule settings the options give, checked; a team's name is trimmed, none is null. */
export function givenRuleSettings(options: SupplierOptions): Partial<SupplierSettings> {
  const given: Record<string, unknown> = {};
  for (const key of SUPPLIER_SETTING_KEYS) {
    const raw = options.ruleSettings?.[key];
    if (raw !== undefined) given[key] = ruleSetting(key, raw);
  }
  return given as Partial<SupplierSettings>;
}

/** OperatorError when the settings name an operations team that does not exist. */
export async function requireSettingTeams(
  db: Kysely<Database>,
  settings: Partial<SupplierSettings>,
): Promise<void> {
  const team = settings.auto_allocation_team;
  if (typeof team === 'string' && !(await teamExists(db, team))) {
    throw new OperatorError(
      `operations team ${quoted(team)} does not exist: add it with "team add" first, or give another`,
    );
  }
}
