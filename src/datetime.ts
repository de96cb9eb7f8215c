/** The service's datetime format (docs/interface.md, Conventions), `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). */

/** Epoch milliseconds in the service's datetime format; the milliseconds are dropped. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
