/**
 * What every part of the running service shares: configuration, database, signing key and the
 * platform data accounts are validated against.
 */
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { PlatformDataHolder } from './platform/live-platform-data.js';

export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  /** HS256 key for access tokens (TOKEN_SECRET, or generated once and kept in the database). */
  readonly tokenSecret: Uint8Array;
  /** The reference catalogue and platform settings, kept current (src/platform/). */
  readonly platform: PlatformDataHolder;
}
