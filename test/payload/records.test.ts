import { describe, expect, it } from 'vitest';
import { resolveDocumentLocation } from '../../src/accounts/documents.js';
import { isDocumentPath } from '../../src/payload/rules/document-path.js';
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
  it('need a known type, a vendor and a reference', () => {
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
      { code: 'max_length', attr: 'payment_instructions.0.vendor' },
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
      buildStatement(1, { statement_id: 'x'.repeat(65) }),
      buildStatement(2, { bill_period_from_date: undefined, bill_period_to_date: undefined }),
      buildStatement(3, { bill_period_from_date: '2024-03-02', bill_period_to_date: '2024-03-01' }),
      buildStatement(4, { gross_amount: 12.5, issued_date: '2024-4-1' }),
    ];
    expectProblems(buildAccount({ statements }), [
      { code: 'max_length', attr: 'statements.0.statement_id' },
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

  it('check statement_path as a document path', () => {
    const statements = [buildStatement(1, { statement_path: 'statements/S-1.pdf' })];
    expectProblem(
      buildAccount({ statements }),
      'invalid_document_path',
      'statements.0.statement_path',
    );
  });
});

describe('document paths', () => {
  it.each([
    '/statements/2024/S-1.pdf',
    '/a',
    '/x/.hidden',
    '/x/...',
    '/ü/ñ.pdf',
    '/a b/c.pdf',
    // Changed by NFKC normalisation, but into nothing that separates or climbs.
    '/cafe\u0301.pdf',
    '/x\u00b2.pdf',
    '/a\u00a0b.pdf',
    '/\uff76\uff80\uff76\uff85.pdf',
  ])('accepts %j', (path) => {
    expect(isDocumentPath(path)).toBe(true);
  });

  it.each([
    '/',
    'statements/S-1.pdf',
    '//S-1.pdf',
    '/statements//S-1.pdf',
    '/statements/',
    '/./S-1.pdf',
    '/statements/../secret.pdf',
    '/statements/..',
    '/statements\\S-1.pdf',
    '/S-1.pdf?x=1',
    '/S-1.pdf#page=2',
    '/S-1\u0000.pdf',
    '/S-1\n.pdf',
    '/https://evil.example/S-1.pdf',
    '/s3:bucket/S-1.pdf',
    `/${'x'.repeat(1024)}`,
    '/%2e%2e/secret.pdf',
    '/a/%2E%2E/b.pdf',
    '/%00/x.pdf',
    '/..%c0%af/x.pdf',
    '/\uff0e\uff0e/x.pdf',
    '/a/..\u2215b.pdf',
    '/a\uff0fb.pdf',
    '/\uff05\u0032e.pdf',
    '/s3\uff1abucket/x.pdf',
    '/x\uff1f.pdf',
  ])('refuses %j', (path) => {
    expect(isDocumentPath(path)).toBe(false);
  });

  it.each([
    ['suppliers/demo/', 'bucket/suppliers/demo/statements/S-1.pdf'],
    ['/suppliers/demo', 'bucket/suppliers/demo/statements/S-1.pdf'],
    ['', 'bucket/statements/S-1.pdf'],
  ])('resolve under the supplier root %j', (root, location) => {
    expect(resolveDocumentLocation('bucket', root, '/statements/S-1.pdf')).toBe(location);
  });
});

describe('notes', () => {
  it('need a body or at least one document path', () => {
    const notes = [
      { is_pinned: true },
      { body: '   ', document_paths: [] },
      { body: 'Call back' },
      { document_paths: [{ document_path: '/notes/n.pdf' }] },
    ];
    expectProblems(buildAccount({ notes }), [
      { code: 'note_body_or_documents_required', attr: 'notes.0.body' },
      { code: 'note_body_or_documents_required', attr: 'notes.1.body' },
    ]);
  });

  it('check body length, created_at and document paths', () => {
    const notes = [
      { body: 'x'.repeat(10_001) },
      { body: 'ok', created_at: '2025-06-16T00:00:00Z', is_pinned: 'no' },
      { document_paths: [{ document_path: '/n/../x.pdf' }, { path: '/n.pdf' }] },
    ];
    expectProblems(buildAccount({ notes }), [
      { code: 'max_length', attr: 'notes.0.body' },
      { code: 'date_in_future', attr: 'notes.1.created_at' },
      { code: 'invalid_type', attr: 'notes.1.is_pinned' },
      { code: 'invalid_document_path', attr: 'notes.2.document_paths.0.document_path' },
      { code: 'required', attr: 'notes.2.document_paths.1.document_path' },
      { code: 'unknown_field', attr: 'notes.2.document_paths.1.path' },
    ]);
  });

  it('accept a created_at during today', () => {
    const notes = [{ body: 'ok', created_at: '2025-06-15T23:59:59Z' }];
    expect(valueOf(buildAccount({ notes })).notes).toEqual(notes);
  });
});

describe('references and metadata', () => {
  it('(namespace, value) pairs are unique', () => {
    const references = [
      { namespace: 'crm', value: '1' },
      { namespace: 'crm', value: '2' },
      { namespace: 'erp', value: '1' },
      { namespace: 'crm', value: '1' },
    ];
    expectProblem(buildAccount({ references }), 'duplicate_references', 'references.3');
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
    expectProblem(buildAccount({ metadata }), 'duplicate_metadata_keys', 'metadata.2.key');
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
