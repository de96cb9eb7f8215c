/**
 * Notes added to a created account, each on its own: a note already on the account (from its
 * creation, added before, or earlier in the same request; see note-identity.ts) is answered
 * NOTE_ALREADY_EXISTS and not added again, any other NOTE_CREATION_SUCCESS. Sending the same
 * request twice, or twice at once, adds each note once.
 */
import type { Caller } from '../../auth/access.js';
import { readAccountDocument } from '../../accounts/account-store.js';
import type { AppContext } from '../../context.js';
import { atomicWrite } from '../../db/storage.js';
import type { NulPath } from '../../http/json-body.js';
import { AccountNote, type Note } from '../../account/schema/generated.js';
import { addedDocuments } from '../added-documents.js';
import { addItems, locateDocuments } from '../additions.repository.js';
import { accountEvent, type CreatedAccount } from '../created-account.js';
import { recordEvents } from '../../events/events.repository.js';
import { confirmPostImport } from '../post-import.request.js';
import { noteKey } from './note-identity.js';

export type NoteStatus = 'NOTE_CREATION_SUCCESS' | 'NOTE_ALREADY_EXISTS';

/** A note of the request as validated, with what became of it. */
export type NoteResult = Note & { status: NoteStatus };

const nameOf = (body: AccountNote) => ({
  supplierCode: body.import_supplier,
  // The object rule on AccountNote makes sure one of the two is given.
  externalAccountNumber: body.external_account_number ?? body.account_number ?? '',
});

/** Validates the body, finds the account, adds the notes it does not have: one result a note. */
export async function createNotes(
  ctx: AppContext,
  caller: Caller,
  input: unknown,
  nulPaths: readonly NulPath[] | undefined,
): Promise<NoteResult[]> {
  const { body, account } = await confirmPostImport(
    ctx,
    caller,
    input,
    nulPaths,
    AccountNote,
    nameOf,
  );
  const keys = body.notes.map(noteKey);
  // A created account's document never changes: it is read outside the write.
  const created = createdNoteKeys(await readAccountDocument(ctx.db.kysely, account.accountId));
  const seen = new Set<string>(created);
  const fresh: { key: string; data: string; note: Note }[] = [];
  body.notes.forEach((note, i) => {
    const key = keys[i] as string;
    if (seen.has(key)) return;
    seen.add(key);
    fresh.push({ key, data: JSON.stringify(note), note });
  });
  const added =
    fresh.length === 0
      ? new Map<string, number>()
      : await addNotes(ctx, account, fresh, body.notes.length);
  return body.notes.map((note, i) => {
    const key = keys[i] as string;
    // A key is added once: a later note of the request with the same key already exists.
    const status = added.delete(key) ? 'NOTE_CREATION_SUCCESS' : 'NOTE_ALREADY_EXISTS';
    return { ...note, status };
  });
}

/**
 * Adds the notes whose key the account does not hold yet, locates their documents and records
 * the NOTES_ADDED event when any was added (of the `requested` notes), in one write; the keys
 * added, with their rows' ids.
 */
function addNotes(
  ctx: AppContext,
  account: CreatedAccount,
  fresh: readonly { key: string; data: string; note: Note }[],
  requested: number,
): Promise<Map<string, number>> {
  return atomicWrite(ctx.db, async (executor) => {
    const { accountId } = account;
    const rows = await addItems(executor, accountId, 'note', fresh, Date.now());
    const stored = fresh.flatMap(({ key, note }) => {
      const id = rows.get(key);
      return id === undefined ? [] : [{ id, item: note }];
    });
    const documents = addedDocuments(ctx.config.documentBucket, account, 'notes', stored);
    await locateDocuments(executor, accountId, documents);
    if (rows.size > 0) {
      const data = { created: rows.size, already_existing: requested - rows.size };
      const event = accountEvent(account, 'EVENT_ACCOUNT_IMPORT_PROCESS_NOTES_ADDED', data);
      await recordEvents(executor, [event]);
    }
    return rows;
  });
}

/** The keys of the notes the account was created with. */
function createdNoteKeys(document: string): Set<string> {
  const notes = (JSON.parse(document) as { notes?: Note[] }).notes ?? [];
  return new Set(notes.map(noteKey));
}
