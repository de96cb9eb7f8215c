/** Platform settings (placeholder until the settings feature lands: every setting at its default). */
import type { Db } from '../db/database.js';

export async function loadPlatformSettings(
  _db: Db,
): Promise<{ version: number; settings: Readonly<Record<string, unknown>> }> {
  return { version: 0, settings: {} };
}
