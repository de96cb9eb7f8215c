/** Document path fields of an account and their storage locations (docs/interface.md, Document paths). */
import type { EnergyAccount } from '../account/account.js';

export interface DocumentReference {
  /** Dot path of the payload field, e.g. `notes.1.document_paths.0.document_path`. */
  source: string;
  path: string;
}

/** The fields that name a stored document, wherever the account nests them. */
const DOCUMENT_FIELDS = new Set(['statement_path', 'document_path']);

/** Every document path of the account, in payload order (a depth-first walk). */
export function collectDocuments(payload: EnergyAccount): DocumentReference[] {
  const documents: DocumentReference[] = [];
  const visit = (value: unknown, source: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${source}${i}.`));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, field] of Object.entries(value)) {
        if (DOCUMENT_FIELDS.has(key) && typeof field === 'string') {
          documents.push({ source: `${source}${key}`, path: field });
        } else {
          visit(field, `${source}${key}.`);
        }
      }
    }
  };
  visit(payload, '');
  return documents;
}

/** `<bucket>/<root without trailing slash><path with its leading slash>`. */
export function resolveDocumentLocation(bucket: string, root: string, path: string): string {
  const trimmedRoot = root.replace(/\/+$/, '');
  const rootPart =
    trimmedRoot === '' || trimmedRoot.startsWith('/') ? trimmedRoot : `/${trimmedRoot}`;
  return `${bucket}${rootPart}${path}`;
}
