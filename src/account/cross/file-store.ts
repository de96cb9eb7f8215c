/**
 * Document paths against the migration file store, where the platform setting
 * `document_path_check_enabled` is on (off by default, as published). The service does not see
 * the store: the files uploaded to it are the reference entries of kind `uploaded_document`,
 * keyed by the path as a payload names it once it has its leading slash (what the path's own
 * rule gives back). A path refused by its own rule is not in `out` and is not looked up.
 */
import { fail, type Run } from '../../payload/validators.js';
import { platformSetting, referenceEntry } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

const CODE = 'path_does_not_exist_in_file_store';

/** A rule refusing `field` when it names no uploaded file, with the check on. */
function uploaded(field: string): ObjectRule {
  return {
    codes: [CODE],
    check: (out, prefix, run: Run) => {
      const path = out[field];
      if (typeof path !== 'string' || !platformSetting(run, 'document_path_check_enabled')) return;
      if (referenceEntry(run, 'uploaded_document', path) !== undefined) return;
      fail(run, `${prefix}${field}`, CODE, 'No file of this path was uploaded to the file store.');
    },
  };
}

export const FILE_STORE_RULES: ObjectRules = {
  NoteDocument: uploaded('document_path'),
  Statement: uploaded('statement_path'),
};
