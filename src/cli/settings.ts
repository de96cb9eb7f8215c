/** `settings set | reset | list`: the platform settings the account rules read (src/settings/). */
import type { Command } from 'commander';
import {
  PLATFORM_SETTING_KEYS,
  platformSetting,
  type PlatformSettingKey,
} from '../settings/settings.declared.js';
import type { PlatformSettingChange, PlatformSettingView } from '../settings/settings.types.js';
import { formatTable, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../settings/settings.service.js');

/** A value as the VALUE text that sets it. */
const shown = (key: PlatformSettingKey, value: unknown) => platformSetting(key).show(value);

function settingJson(setting: PlatformSettingView) {
  return { key: setting.key, value: setting.value, default: setting.default, set: setting.set };
}

function changeJson(change: PlatformSettingChange) {
  return { ...settingJson(change), previous: change.previous, changed: change.changed };
}

function describeChange(change: PlatformSettingChange, verb: string): string {
  const now = shown(change.key, change.value);
  if (!change.changed) return `platform setting ${change.key} ${verb}: still ${now}`;
  return `platform setting ${change.key} ${verb}: ${shown(change.key, change.previous)} -> ${now}`;
}

/** Every key, what VALUE it takes and its default, for the help of `set`. */
function keysHelp(): string {
  const rows = PLATFORM_SETTING_KEYS.map((key) => {
    const declaration = platformSetting(key);
    return [key, declaration.expects, shown(key, declaration.default)];
  });
  return `\nSettings:\n${formatTable(['KEY', 'VALUE', 'DEFAULT'], rows)}`;
}

export function registerSettings(program: Command): void {
  const group = program
    .command('settings')
    .description('manage the platform settings the account rules read');

  group
    .command('set')
    .description('give a platform setting a value')
    .argument('<key>', 'the setting, such as payment_day_min')
    .argument('<value>', 'its value, such as 5, on, or a,b for a list ("" for none)')
    .addHelpText('after', keysHelp)
    .action(async (key: string, value: string, _options: unknown, command: Command) => {
      const { setPlatformSetting } = await operations();
      const change = await withDatabase(command, (db) => setPlatformSetting(db, key, value));
      print(command, changeJson(change), describeChange(change, 'set'));
    });

  group
    .command('reset')
    .description('give a platform setting its default value again')
    .argument('<key>', 'the setting, such as payment_day_min')
    .action(async (key: string, _options: unknown, command: Command) => {
      const { resetPlatformSetting } = await operations();
      const change = await withDatabase(command, (db) => resetPlatformSetting(db, key));
      print(command, changeJson(change), describeChange(change, 'reset to its default'));
    });

  group
    .command('list')
    .description('list every platform setting: its value, its default and whether it is set')
    .action(async (_options: unknown, command: Command) => {
      const { listPlatformSettings } = await operations();
      const settings = await withDatabase(command, listPlatformSettings);
      printList(
        command,
        settings.map(settingJson),
        ['KEY', 'VALUE', 'DEFAULT', 'SET'],
        settings.map((setting) => [
          setting.key,
          shown(setting.key, setting.value),
          shown(setting.key, setting.default),
          setting.set ? 'yes' : 'no',
        ]),
        'no platform settings',
      );
    });
}
