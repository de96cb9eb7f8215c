/** What every part of the running service shares: configuration, database and signing key. */
import type { Config } from './config.js';
import type { Db } from './db/database.js';

export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  /** HS256 key for access tokens (TOKEN_SECRET, or generated once and kept in the database). */
  readonly tokenSecret: Uint8Array;
}
