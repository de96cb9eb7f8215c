/**
 * The platform data an instance validates against, kept current: every `refreshMs` it reads the
 * change markers of the catalogue and of the settings, and reloads only what a moved marker
 * says changed. So an operator's change reaches every instance within one interval and a read
 * (docs/decisions.md, "Reference data and settings").
 */
import type { Db } from '../db/database.js';
import {
  loadReferenceCatalogue,
  refreshReferenceCatalogue,
} from '../reference/reference.loader.js';
import { loadPlatformSettings, refreshPlatformSettings } from '../settings/settings.service.js';
import { platformData, type PlatformData } from './platform-data.js';

/** Reads the whole platform data. */
export async function loadPlatformData(db: Db): Promise<PlatformData> {
  const catalogue = await loadReferenceCatalogue(db);
  const { version, settings } = await loadPlatformSettings(db);
  return platformData(catalogue, version, settings);
}

/** `data` itself while both markers are current; else with what changed read again. */
export async function refreshPlatformData(db: Db, data: PlatformData): Promise<PlatformData> {
  const catalogue = await refreshReferenceCatalogue(db, data.catalogue);
  const loaded = { version: data.settingsVersion, settings: data.settings };
  const settings = await refreshPlatformSettings(db, loaded);
  if (catalogue === data.catalogue && settings === loaded) return data;
  return platformData(catalogue, settings.version, settings.settings);
}

/** Whether `a` was read no earlier than `b` (both markers only ever grow). */
const notOlder = (a: PlatformData, b: PlatformData) =>
  a.catalogue.version >= b.catalogue.version && a.settingsVersion >= b.settingsVersion;

/** Where an instance keeps the platform data current (LivePlatformData). */
export interface PlatformDataHolder {
  /** The data as last read. */
  readonly current: PlatformData;
  /** Reads the change markers now, and what changed. */
  refresh(): Promise<PlatformData>;
}

export class LivePlatformData implements PlatformDataHolder {
  readonly #db: Db;
  #current: PlatformData;
  #timer: NodeJS.Timeout | undefined;

  private constructor(db: Db, current: PlatformData) {
    this.#db = db;
    this.#current = current;
  }

  /** Read now, then kept current every `refreshMs` until close(); never refreshed with 0. */
  static async start(
    db: Db,
    refreshMs: number,
    onError: (error: unknown) => void,
  ): Promise<LivePlatformData> {
    const live = new LivePlatformData(db, await loadPlatformData(db));
    if (refreshMs > 0) {
      live.#timer = setInterval(() => {
        live.refresh().catch(onError);
      }, refreshMs);
      // The refresh must not keep a process alive; close() is the orderly way out.
      live.#timer.unref();
    }
    return live;
  }

  /** The data as last read. */
  get current(): PlatformData {
    return this.#current;
  }

  /** Reads the markers now; a read that ends after a later one started keeps the newer data. */
  async refresh(): Promise<PlatformData> {
    const data = await refreshPlatformData(this.#db, this.#current);
    if (notOlder(data, this.#current)) this.#current = data;
    return this.#current;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
