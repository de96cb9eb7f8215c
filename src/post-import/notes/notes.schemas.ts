/** The JSON Schema of notes/create. */
import { component, POST_IMPORT, postImportErrors } from '../post-import.schemas.js';

const dateTime = { type: 'string', format: 'date-time' } as const;

/** A note as validated, with what became of it (the published CreateAccountNotesResponse). */
const noteResult = {
  title: 'CreateAccountNotesResponse',
  type: 'object',
  properties: {
    body: { type: 'string' },
    created_at: dateTime,
    document_paths: {
      type: 'array',
      items: {
        type: 'object',
        properties: { document_path: { type: 'string' } },
        required: ['document_path'],
      },
    },
    external_id: { type: 'string' },
    is_archived: { type: 'boolean' },
    is_pinned: { type: 'boolean' },
    unpin_at: dateTime,
    status: { type: 'string', enum: ['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'] },
  },
  required: ['status'],
} as const;

export const notesSchema = {
  ...POST_IMPORT,
  operationId: 'createAccountNotes',
  summary: 'Add notes to a created account (each once)',
  body: component('AccountNote'),
  response: {
    201: {
      description:
        'One result per note of the request, in its order: NOTE_CREATION_SUCCESS when added, NOTE_ALREADY_EXISTS when the account already had it',
      type: 'array',
      items: noteResult,
    },
    ...postImportErrors(),
  },
};
