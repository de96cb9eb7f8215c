/** Document path fields of an account and their storage locations (docs/interface.md, Document paths). */
import type { EnergyAccount } from '../account/account.js';

export interface DocumentReference {
  /** Dot path of the payload field, e.g. `notes.1.document_paths.0.document_path`. */
  source: string;
  path: string;
}

export function collectDocuments(payload: EnergyAccount): DocumentReference[] {
  const documents: DocumentReference[] = [];
  for (const [i, statement] of (payload.statements ?? []).entries()) {
    if (statement.statement_path) {
      documents.push({ source: `statements.${i}.statement_path`, path: statement.statement_path });
    }
  }
  for (const [i, note] of (payload.notes ?? []).entries()) {
    for (const [j, document] of (note.document_paths ?? []).entries()) {
      documents.push({
        source: `notes.${i}.document_paths.${j}.document_path`,
        path: document.document_path,
      });
    }
  }
  return documents;
}

/** `<bucket>/<root without trailing slash><path with its leading slash>`. */
export function resolveDocumentLocation(bucket: string, root: string, path: string): string {
  const trimmedRoot = root.replace(/\/+$/, '');
  const rootPart =
    trimmedRoot === '' || trimmedRoot.startsWith('/') ? trimmedRoot : `/${trimmedRoot}`;
  return `${bucket}${rootPart}${path}`;
}
