import { describe, expect, it } from 'vitest';
import { buildAccount, buildStatement } from './factory.js';
import { MAX_JSON_DEPTH } from '../../src/payload/scalars.js';
import { expectProblem, expectProblems, valueOf } from './helpers.js';

/** A JSON value nested `depth` levels of arrays deep. */
function nested(depth: number): unknown {
  let value: unknown = 'innermost';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe('payment instructions', () => {
  it('need a published type and vendor, and a reference', () => {
    const payment_instructions = [
      {
        type: 'CHEQUE',
        vendor: 'v'.repeat(65),
        reference: 'r'.repeat(513),
        valid_from: '2024-02-30',
      },
      {},
    ];
    expectProblems(buildAccount({ payment_instructions }), [
      { code: 'invalid_choice', attr: 'payment_instructions.0.type' },
      { code: 'invalid_choice', attr: 'payment_instructions.0.vendor' },
      { code: 'max_length', attr: 'payment_instructions.0.reference' },
      { code: 'invalid_date', attr: 'payment_instructions.0.valid_from' },
      { code: 'required', attr: 'payment_instructions.1.type' },
      { code: 'required', attr: 'payment_instructions.1.vendor' },
      { code: 'required', attr: 'payment_instructions.1.reference' },
    ]);
  });
});

describe('statements', () => {
  it('need an id and a bill period that does not end before it starts', () => {
    const statements = [
      buildStatement(1, { statement_id: ' ' }),
      buildStatement(2, { bill_period_from_date: undefined, bill_period_to_date: undefined }),
      buildStatement(3, { bill_period_from_date: '2024-03-02', bill_period_to_date: '2024-03-01' }),
      buildStatement(4, { gross_amount: 12.5, issued_date: '2024-4-1' }),
      // No published limit on an id (v1: 64); amount and issue date may be null.
      buildStatement(5, { statement_id: 'x'.repeat(65), gross_amount: null, issued_date: null }),
    ];
    expectProblems(buildAccount({ statements }), [
      { code: 'blank', attr: 'statements.0.statement_id' },
      { code: 'required', attr: 'statements.1.bill_period_from_date' },
      { code: 'required', attr: 'statements.1.bill_period_to_date' },
      { code: 'start_date_later_than_end_date', attr: 'statements.2.bill_period_to_date' },
      { code: 'invalid_type', attr: 'statements.3.gross_amount' },
      { code: 'invalid_date', attr: 'statements.3.issued_date' },
    ]);
  });

  it('refuse amounts beyond the safe integer range as out of range, not as non-integers', () => {
    const statements = [
      buildStatement(1, { gross_amount: 2 ** 53 }),
      buildStatement(2, { gross_amount: -1e20 }),
      buildStatement(3, { gross_amount: Number.MAX_SAFE_INTEGER }),
    ];
    expectProblems(buildAccount({ statements }), [
      { code: 'max_value', attr: 'statements.0.gross_amount' },
      { code: 'min_value', attr: 'statements.1.gross_amount' },
    ]);
  });

  it('accept a one-day period and negative amounts', () => {
    const statement = buildStatement(1, { bill_period_to_date: '2024-01-01', gross_amount: -500 });
    expect(valueOf(buildAccount({ statements: [statement] })).statements?.[0]?.gross_amount).toBe(
      -500,
    );
  });

  it('have unique ids, reported on the second occurrence', () => {
    const statements = [
      buildStatement(1),
      buildStatement(2),
      buildStatement(3, { statement_id: 'S-1' }),
    ];
    expectProblem(
      buildAccount({ statements }),
      'duplicate_statement_ids',
      'statements.2.statement_id',
    );
  });

  it('check statement_path as a document path, given a leading slash when it has none', () => {
    const statements = [
      buildStatement(1, { statement_path: 'statements/S-1.pdf' }),
      buildStatement(2, { statement_path: '/statements/S-2.pdf' }),
    ];
    expect(valueOf(buildAccount({ statements })).statements?.map((s) => s.statement_path)).toEqual([
      '/statements/S-1.pdf',
      '/statements/S-2.pdf',
    ]);
    expectProblems(
      buildAccount({
        statements: [
          buildStatement(1, { statement_path: 'statements/../S-1.pdf' }),
          buildStatement(2, { statement_path: '/statements/' }),
        ],
      }),
      [
        { code: 'invalid_document_path', attr: 'statements.0.statement_path' },
        { code: 'invalid_document_path', attr: 'statements.1.statement_path' },
      ],
    );
  });
});

describe('notes', () => {
  it('need a body or at least one document path', () => {
    const notes = [
      { is_pinned: true },
      { body: '   ', document_paths: [] },
      { body: 'Call back' },
      { document_paths: [{ document_path: '/notes/n.pdf' }] },
      // A field of the wrong type is reported as such, and counts as sent.
      { document_paths: 'n.pdf' },
    ];
    expectProblems(buildAccount({ notes }), [
      { code: 'note_body_or_document_path_not_found', attr: 'notes.0.body' },
      { code: 'note_body_or_document_path_not_found', attr: 'notes.1.body' },
      { code: 'invalid_type', attr: 'notes.4.document_paths' },
    ]);
  });

  it('check created_at, flags and document paths', () => {
    const notes = [
      // No published limit on a body (v1: 10,000 characters).
      { body: 'x'.repeat(10_001) },
      { body: 'ok', created_at: '2025-06-16T00:00:00Z', is_pinned: 'no' },
      { document_paths: [{ document_path: '/n/../x.pdf' }, { path: '/n.pdf' }] },
      // Today is 2025-06-15: this is the first second of tomorrow in UTC.
      { body: 'ok', created_at: '2025-06-15T23:00:00-01:00', unpin_at: 'soon' },
    ];
    expectProblems(buildAccount({ notes }), [
      { code: 'date_in_future', attr: 'notes.1.created_at' },
      { code: 'invalid_type', attr: 'notes.1.is_pinned' },
      { code: 'invalid_document_path', attr: 'notes.2.document_paths.0.document_path' },
      { code: 'required', attr: 'notes.2.document_paths.1.document_path' },
      { code: 'unknown_field', attr: 'notes.2.document_paths.1.path' },
      { code: 'date_in_future', attr: 'notes.3.created_at' },
      { code: 'invalid_datetime', attr: 'notes.3.unpin_at' },
    ]);
  });

  it('are unpinned at or after their creation, compared as instants', () => {
    const notes = [
      { body: 'a', created_at: '2024-02-01T10:00:00Z', unpin_at: '2024-02-01T09:59:59Z' },
      // The same instant written with another offset, and a later one with milliseconds.
      { body: 'b', created_at: '2024-02-01T10:00:00Z', unpin_at: '2024-02-01T11:00:00+01:00' },
      { body: 'c', created_at: '2024-02-01T10:00:00Z', unpin_at: '2024-02-01T10:00:00.500Z' },
      { body: 'd', unpin_at: '2020-01-01T00:00:00Z' },
    ];
    expectProblem(
      buildAccount({ notes }),
      'note_unpin_at_earlier_than_creation_date',
      'notes.0.unpin_at',
    );
  });

  it('accept a created_at during today, and keep datetimes in UTC', () => {
    const notes = [
      { body: 'ok', created_at: '2025-06-15T23:59:59Z' },
      {
        body: 'ok',
        created_at: '2025-06-15T09:30:00+01:00',
        unpin_at: '2025-07-01',
        external_id: 'N-1',
        is_archived: false,
      },
    ];
    expect(valueOf(buildAccount({ notes })).notes).toEqual([
      notes[0],
      { ...notes[1], created_at: '2025-06-15T08:30:00Z', unpin_at: '2025-07-01T00:00:00Z' },
    ]);
  });
});

describe('references and metadata', () => {
  it('(namespace, value) pairs are unique', () => {
    const references = [
      { namespace: 'legacy-crm', value: '1' },
      { namespace: 'legacy-crm', value: '2' },
      { namespace: 'allpay-client-reference-number', value: '1' },
      { namespace: 'legacy-crm', value: '1' },
    ];
    expectProblem(buildAccount({ references }), 'children_with_duplicate_values', 'references.3');
    // Compared once trimmed, as stored.
    expectProblem(
      buildAccount({
        references: [
          { namespace: 'legacy-crm', value: '1' },
          { namespace: ' legacy-crm ', value: '1 ' },
        ],
      }),
      'children_with_duplicate_values',
      'references.1',
    );
  });
  it('reference fields have their lengths', () => {
    expectProblems(
      buildAccount({ references: [{ namespace: 'n'.repeat(51), value: 'v'.repeat(101) }] }),
      [
        { code: 'max_length', attr: 'references.0.namespace' },
        { code: 'max_length', attr: 'references.0.value' },
      ],
    );
  });
  it('metadata keys are unique', () => {
    const metadata = [
      { key: 'a', value: 1 },
      { key: 'b', value: [1, 2] },
      { key: 'a', value: 'again' },
    ];
    expectProblem(buildAccount({ metadata }), 'metadata_has_duplicate_keys', 'metadata.2.key');
  });
  it('metadata keys hold at most 1,024 characters', () => {
    const key = 'k'.repeat(1024);
    expect(valueOf(buildAccount({ metadata: [{ key, value: 1 }] })).metadata?.[0]?.key).toBe(key);
    expectProblem(
      buildAccount({ metadata: [{ key: `${key}k`, value: 1 }] }),
      'max_length',
      'metadata.0.key',
    );
  });
  it('metadata values are any JSON up to 10,000 bytes', () => {
    const value = valueOf(
      buildAccount({ metadata: [{ key: 'k', value: { nested: [true, 'x'] } }] }),
    );
    expect(value.metadata?.[0]?.value).toEqual({ nested: [true, 'x'] });
    const fits = 'é'.repeat(4999); // 9,998 bytes plus two quotes
    expect(valueOf(buildAccount({ metadata: [{ key: 'k', value: fits }] })).metadata).toHaveLength(
      1,
    );
    expectProblem(
      buildAccount({ metadata: [{ key: 'k', value: `${fits}x` }] }),
      'max_length',
      'metadata.0.value',
    );
  });
  it('metadata values are required and not null', () => {
    expectProblems(buildAccount({ metadata: [{ key: 'k' }, { key: 'j', value: null }] }), [
      { code: 'required', attr: 'metadata.0.value' },
      { code: 'null', attr: 'metadata.1.value' },
    ]);
  });
  it('metadata values may not hold a number too large to store', () => {
    // JSON.parse reads 1e400 as Infinity, which would be stored as null, which is refused.
    const body = JSON.parse(
      JSON.stringify(buildAccount({ metadata: [] })).replace(
        '"metadata":[]',
        '"metadata":[{"key":"a","value":1e400},{"key":"b","value":{"n":[1,-1e999]}},{"key":"c","value":1e308}]',
      ),
    ) as Record<string, unknown>;
    expectProblems(body, [
      { code: 'invalid_type', attr: 'metadata.0.value' },
      { code: 'invalid_type', attr: 'metadata.1.value' },
    ]);
  });
  it.each([1, MAX_JSON_DEPTH])('metadata values may nest %i levels', (depth) => {
    const value = nested(depth);
    expect(valueOf(buildAccount({ metadata: [{ key: 'k', value }] })).metadata).toEqual([
      { key: 'k', value },
    ]);
  });
  it.each([MAX_JSON_DEPTH + 1, 4_500])('metadata values may not nest %i levels', (depth) => {
    // Deep enough for JSON.stringify to run out of stack on some threads and not on others.
    expectProblem(
      buildAccount({ metadata: [{ key: 'k', value: { deep: nested(depth - 1) } }] }),
      'invalid_type',
      'metadata.0.value',
    );
  });
  it('metadata values keep the nulls inside them, and are searched there for such numbers', () => {
    const kept = { a: null, n: [1, null, { deep: [null] }] };
    expect(valueOf(buildAccount({ metadata: [{ key: 'k', value: kept }] })).metadata).toEqual([
      { key: 'k', value: kept },
    ]);
    const body = JSON.parse(
      JSON.stringify(buildAccount({ metadata: [] })).replace(
        '"metadata":[]',
        '"metadata":[{"key":"a","value":[null,{"n":[null,1e400]}]}]',
      ),
    ) as Record<string, unknown>;
    expectProblems(body, [{ code: 'invalid_type', attr: 'metadata.0.value' }]);
  });
});
