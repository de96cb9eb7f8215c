/** Account-level lists: payment instructions, statements, notes, references and metadata. */
import { date, datetime } from '../dates.js';
import { object, optional, required } from '../object.js';
import { documentPath } from '../rules/document-path.js';
import { bool, enumOf, integer, jsonValue, str } from '../scalars.js';
import { array, fail, uniqueBy, type Infer } from '../validators.js';

export const paymentInstruction = object({
  type: required(enumOf(['DIRECT_DEBIT', 'CARD', 'PAYMENT_SLIP'])),
  vendor: required(str(64)),
  reference: required(str(512)),
  valid_from: optional(date()),
});

const statement = object({
  statement_id: required(str(64), 'Unique within the account.'),
  bill_period_from_date: required(date()),
  bill_period_to_date: required(date({ notBefore: 'bill_period_from_date' })),
  issued_date: optional(date()),
  gross_amount: optional(integer(), 'Minor units (pence).'),
  statement_path: optional(documentPath),
});

export const statements = array(statement, {
  refine: uniqueBy(
    (s) => s.statement_id,
    'duplicate_statement_ids',
    'statement_id',
    'This statement_id was already used by an earlier statement.',
  ),
});

const noteDocument = object({ document_path: required(documentPath) });

const nothing = (raw: unknown) =>
  raw === undefined || (typeof raw === 'string' && raw.trim() === '');

export const note = object(
  {
    body: optional(str(10_000)),
    created_at: optional(datetime({ notFuture: true })),
    is_pinned: optional(bool),
    document_paths: optional(array(noteDocument)),
  },
  {
    description: 'A note needs a body or at least one document path.',
    refine: (_out, prefix, run, input) => {
      const docs = input.document_paths;
      if (
        nothing(input.body) &&
        (docs === undefined || (Array.isArray(docs) && docs.length === 0))
      ) {
        fail(
          run,
          `${prefix}body`,
          'note_body_or_documents_required',
          'A note needs a body or at least one document path.',
        );
      }
    },
    schema: {
      anyOf: [
        { required: ['body'] },
        {
          required: ['document_paths'],
          properties: { document_paths: { type: 'array', minItems: 1 } },
        },
      ],
    },
  },
);

const reference = object({
  namespace: required(str(50)),
  value: required(str(100)),
});

export const references = array(reference, {
  description: '(namespace, value) pairs are unique.',
  refine: uniqueBy(
    (r) =>
      r.namespace === undefined || r.value === undefined
        ? undefined
        : `${r.namespace}\u0000${r.value}`,
    'duplicate_references',
    null,
    'This (namespace, value) pair was already given by an earlier reference.',
  ),
});

const metadataEntry = object({
  key: required(str(100)),
  value: required(jsonValue(10_000)),
});

export const metadata = array(metadataEntry, {
  description: 'Keys are unique.',
  refine: uniqueBy(
    (m) => m.key,
    'duplicate_metadata_keys',
    'key',
    'This key was already used by an earlier metadata entry.',
  ),
});

export type PaymentInstruction = Infer<typeof paymentInstruction>;
export type Statement = Infer<typeof statement>;
export type Note = Infer<typeof note>;
export type Reference = Infer<typeof reference>;
export type MetadataEntry = Infer<typeof metadataEntry>;
