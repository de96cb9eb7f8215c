/**
 * The platform data tests validate against without a database, and the one a test service
 * keeps current from its own.
 */
import type { Db } from '../../src/db/database.js';
import {
  LivePlatformData,
  type PlatformDataHolder,
} from '../../src/platform/live-platform-data.js';
import { platformData, platformView } from '../../src/platform/platform-data.js';
import { demoCatalogue } from '../../src/reference/reference.demo.js';
import type { PlatformView } from '../../src/payload/validators.js';

/** The demo catalogue (what a fresh install seeds), every platform setting at its default. */
export const TEST_PLATFORM_DATA = platformData(demoCatalogue(), 0);

/** The view a validation reads, for a supplier with the given rule settings (JSON text). */
export const testPlatform = (supplierSettings = '{}'): PlatformView =>
  platformView(TEST_PLATFORM_DATA, supplierSettings);

/** A supplier in region GB, found, on the test platform: the context most tests validate with. */
export const TEST_ACCOUNT_CONTEXT = {
  phoneRegion: 'GB',
  supplierFound: true,
  platform: testPlatform(),
} as const;

/** The platform data of `db`, read once; the test refreshes it when it needs to. */
export const livePlatformOf = (db: Db): Promise<LivePlatformData> =>
  LivePlatformData.start(db, 0, (error) => {
    throw error;
  });

/** TEST_PLATFORM_DATA for an app whose database holds no platform data (not migrated). */
export const FIXED_TEST_PLATFORM: PlatformDataHolder = {
  current: TEST_PLATFORM_DATA,
  refresh: () => Promise.resolve(TEST_PLATFORM_DATA),
};
