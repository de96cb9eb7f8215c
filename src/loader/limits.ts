/** The loader's option limits, apart so the CLI can show them without loading the loader. */

export const DEFAULT_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 256;
