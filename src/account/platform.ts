/**
 * What the account's lookup rules read of the platform, typed: reference entries by kind and
 * code (../reference/), through the run's PlatformView.
 */
import type { Run } from '../payload/validators.js';
import type { ReferenceAttributes, ReferenceKind } from '../reference/reference.kinds.js';

/** The attributes of the platform's entry of `kind` with `code`, or undefined without one. */
export function referenceEntry<K extends ReferenceKind>(
  run: Run,
  kind: K,
  code: string,
): Readonly<ReferenceAttributes<K>> | undefined {
  // The view is built from a ReferenceCatalogue, whose entries are checked by kind on import.
  return run.platform.entry(kind, code) as Readonly<ReferenceAttributes<K>> | undefined;
}
