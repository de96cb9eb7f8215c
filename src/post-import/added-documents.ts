/**
 * The documents that added items name (a statement's `statement_path`, a note's
 * `document_paths`), located as those of the account as created are (docs/interface.md,
 * "Document paths"). Their `source` is `added.<list>.<id>.<field path>`: the list the item is
 * in (as `account show` gives it), the id of its account_additions row, and the field's path
 * within the item.
 */
import { collectDocuments, resolveDocumentLocation } from '../accounts/documents.js';
import type { EnergyAccount } from '../account/account.js';
import type { LocatedDocument } from './additions.repository.js';
import type { CreatedAccount } from './created-account.js';

/** An item added, with the id of its row. */
export interface AddedItem {
  id: number;
  item: object;
}

/** Every document the added items of `list` name, located for the account's supplier. */
export function addedDocuments(
  bucket: string,
  account: CreatedAccount,
  list: string,
  added: readonly AddedItem[],
): LocatedDocument[] {
  return added.flatMap(({ id, item }) =>
    // collectDocuments walks any object by its fields; an item is one, shaped as the account.
    collectDocuments(item as EnergyAccount).map(({ source, path }) => ({
      source: `added.${list}.${id}.${source}`,
      path,
      location: resolveDocumentLocation(bucket, account.supplier.document_root, path),
    })),
  );
}
