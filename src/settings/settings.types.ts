/** What the platform settings services return. */
import type { PlatformSettingKey, PlatformSettings } from './settings.declared.js';

/** One platform setting as listed: its value in force, its default and whether it is set. */
export type PlatformSettingView = {
  [K in PlatformSettingKey]: {
    key: K;
    value: PlatformSettings[K];
    default: PlatformSettings[K];
    /** Whether a value is stored; without one (or with one this version cannot read), the default is in force. */
    set: boolean;
  };
}[PlatformSettingKey];

/** A setting after `set` or `reset`: its value before, and whether the value in force changed. */
export type PlatformSettingChange = PlatformSettingView & {
  previous: PlatformSettingView['value'];
  changed: boolean;
};

/** The settings in force and the change marker they were read at. */
export interface LoadedPlatformSettings {
  version: number;
  settings: PlatformSettings;
}
