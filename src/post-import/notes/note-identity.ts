/**
 * When a note is already on an account (docs/interface.md, "Post-import"): a note with an
 * `external_id` is the one with that external_id; a note without one is the one without an
 * external_id that has the same `created_at` (normalised to UTC; both absent counts as the
 * same) and the same `body` (as sent; absent as empty).
 */
import type { Note } from '../../account/schema/generated.js';
import { storedKey } from '../additions.repository.js';

/** The note's identity within its account, as account_additions stores it. */
export function noteKey(note: Note): string {
  const identity =
    note.external_id === undefined
      ? ['content', note.created_at ?? '', note.body ?? '']
      : ['external', note.external_id];
  return storedKey(JSON.stringify(identity));
}
