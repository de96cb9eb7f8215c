/**
 * The platform settings: the operator sets, resets and lists them; the account rules read them
 * all at once with loadPlatformSettings. Every write that changes a value in force raises the
 * change marker in the same atomic write.
 */
import type { Db } from '../db/database.js';
import { OperatorError } from '../shared/operator-error.js';
import { quoted } from '../shared/quoted.js';
import {
  isPlatformSettingKey,
  PLATFORM_SETTING_KEYS,
  platformSetting,
  platformSettingsProblem,
  type PlatformSettingKey,
  type PlatformSettings,
} from './settings.declared.js';
import { checkValue } from './settings.values.js';
import * as repository from './settings.repository.js';
import type {
  LoadedPlatformSettings,
  PlatformSettingChange,
  PlatformSettingView,
} from './settings.types.js';

/** The key named by the operator; OperatorError naming every key when there is no such setting. */
export function platformSettingKey(raw: string): PlatformSettingKey {
  const key = raw.trim();
  if (!isPlatformSettingKey(key)) {
    throw new OperatorError(
      `unknown setting ${quoted(raw)}: use one of ${PLATFORM_SETTING_KEYS.join(', ')}`,
    );
  }
  return key;
}

/** The value a stored JSON text holds, or undefined when this version cannot read it. */
function storedValue(key: PlatformSettingKey, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const checked = checkValue(platformSetting(key).type, json);
  return 'value' in checked ? checked.value : undefined;
}

/** Every setting's value in force, and the keys whose value is stored and readable. */
function inForce(stored: ReadonlyMap<string, string>): {
  settings: PlatformSettings;
  set: Set<string>;
} {
  const settings: Record<string, unknown> = {};
  const set = new Set<string>();
  for (const key of PLATFORM_SETTING_KEYS) {
    const value = storedValue(key, stored.get(key));
    if (value !== undefined) set.add(key);
    settings[key] = value ?? platformSetting(key).default;
  }
  return { settings: settings as PlatformSettings, set };
}

function view(key: PlatformSettingKey, settings: PlatformSettings, set: boolean) {
  return {
    key,
    value: settings[key],
    default: platformSetting(key).default,
    set,
  } as PlatformSettingView;
}

/** The VALUE text read as the key's value; OperatorError saying what is expected otherwise. */
function readValue(key: PlatformSettingKey, text: string): unknown {
  const declaration = platformSetting(key);
  const read = declaration.read(text);
  const checked = checkValue(declaration.type, read);
  if ('value' in checked) return checked.value;
  // A list's problems name the item at fault; a single value's only repeat what is expected.
  const details = Array.isArray(read) && checked.problems.length > 0;
  throw new OperatorError(
    `invalid value ${quoted(text)} for ${key}: expected ${declaration.expects}` +
      (details ? `; ${checked.problems.join('; ')}` : ''),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Gives the key `value` (undefined: its default, the stored value removed), refused when the
 * settings would then disagree with each other; serialised with every other settings write.
 */
async function change(
  db: Db,
  key: PlatformSettingKey,
  value: unknown,
): Promise<PlatformSettingChange> {
  return db.storage.exclusiveWrite(db.kysely, repository.SETTINGS_LOCK_KEY, async (executor) => {
    const before = inForce(await repository.storedValues(executor, PLATFORM_SETTING_KEYS));
    const next = { ...before.settings, [key]: value ?? platformSetting(key).default };
    const problem = platformSettingsProblem(next);
    if (problem !== undefined) {
      const shown = platformSetting(key).show(next[key]);
      throw new OperatorError(`cannot set ${key} to ${shown}: ${problem}`);
    }
    if (value === undefined) await repository.removeValue(executor, key);
    else await repository.storeValue(executor, key, JSON.stringify(value));
    const changed = !same(before.settings[key], next[key]);
    if (changed) await repository.bumpVersion(executor);
    return {
      ...view(key, next, value !== undefined),
      previous: before.settings[key],
      changed,
    } as PlatformSettingChange;
  });
}

/** Sets the key from the operator's VALUE text; OperatorError for an unknown key or a bad value. */
export async function setPlatformSetting(
  db: Db,
  rawKey: string,
  valueText: string,
): Promise<PlatformSettingChange> {
  const key = platformSettingKey(rawKey);
  return change(db, key, readValue(key, valueText));
}

/** Gives the key its default again (the stored value is removed); a key already so is left as it is. */
export async function resetPlatformSetting(db: Db, rawKey: string): Promise<PlatformSettingChange> {
  return change(db, platformSettingKey(rawKey), undefined);
}

/** Every setting in declaration order: its value in force, its default and whether it is set. */
export async function listPlatformSettings(db: Db): Promise<PlatformSettingView[]> {
  const { settings, set } = inForce(
    await repository.storedValues(db.kysely, PLATFORM_SETTING_KEYS),
  );
  return PLATFORM_SETTING_KEYS.map((key) => view(key, settings, set.has(key)));
}

/** The settings' change marker: it changes whenever a value in force changes. */
export function readPlatformSettingsVersion(db: Db): Promise<number> {
  return repository.readVersion(db.kysely);
}

/**
 * Every setting's value in force, frozen (one object is shared by every check that reads it).
 * The marker is read first: a change committed between the two reads is then loaded under an
 * older marker and loaded again at the next check; the other order could keep it unseen. A
 * stored value this version cannot read gives way to the default.
 */
export async function loadPlatformSettings(db: Db): Promise<LoadedPlatformSettings> {
  const version = await readPlatformSettingsVersion(db);
  const { settings } = inForce(await repository.storedValues(db.kysely, PLATFORM_SETTING_KEYS));
  for (const value of Object.values(settings)) if (Array.isArray(value)) Object.freeze(value);
  return { version, settings: Object.freeze(settings) };
}

/** `loaded` itself while its marker is current, else the settings read again. */
export async function refreshPlatformSettings(
  db: Db,
  loaded: LoadedPlatformSettings,
): Promise<LoadedPlatformSettings> {
  const version = await readPlatformSettingsVersion(db);
  return version === loaded.version ? loaded : loadPlatformSettings(db);
}
