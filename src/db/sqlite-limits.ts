/** How long a write waits for another connection's write lock before it fails as busy. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
