/** notes/create: one result a note; a note already on the account is not added again. */
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { rowCounts, useTestService } from '../helpers/app.js';
import { expectLastEvent, timeline } from '../helpers/events.js';
import {
  addedDocumentRows,
  additions,
  createAccount,
  HAS_REFERENCE,
  publishedExample,
  send,
  validBody,
} from './helpers.js';

type Json = Record<string, unknown>;

const statuses = (response: { json(): unknown }) =>
  (response.json() as { status: string }[]).map((result) => result.status);

const SUCCESS = 'NOTE_CREATION_SUCCESS';
const EXISTS = 'NOTE_ALREADY_EXISTS';
const ADDED = 'EVENT_ACCOUNT_IMPORT_PROCESS_NOTES_ADDED';

await describeEachDialect('notes', (dialect) => {
  const service = useTestService(dialect);

  it.skipIf(!HAS_REFERENCE)('adds the published example, then finds both notes there', async () => {
    await createAccount(service, 'NT-EXAMPLE');
    const body = publishedExample('notes', 'NT-EXAMPLE');
    const first = await send(service, 'notes', body);
    expect(first.statusCode, first.body).toBe(201);
    const notes = body.notes as Json[];
    expect(first.json()).toEqual([
      { ...notes[0], status: SUCCESS },
      {
        ...notes[1],
        document_paths: [{ document_path: '/some/path/to/a/document.pdf' }],
        status: SUCCESS,
      },
    ]);
    const before = await rowCounts(service.db);
    const again = await send(service, 'notes', body);
    expect(again.statusCode).toBe(201);
    expect(statuses(again)).toEqual([EXISTS, EXISTS]);
    expect(await rowCounts(service.db)).toEqual(before);
  });

  it('locates the documents of the notes it adds, and only of those; records what it added', async () => {
    const number = await createAccount(service, 'NT-8');
    const withDocument = (id: string) => ({
      external_id: id,
      document_paths: [{ document_path: `letters/${id}.pdf` }],
    });
    const first = validBody('notes', 'NT-8', { notes: [withDocument('L-1')] });
    expect(statuses(await send(service, 'notes', first))).toEqual([SUCCESS]);
    const second = validBody('notes', 'NT-8', {
      notes: [withDocument('L-1'), withDocument('L-2')],
    });
    const response = await send(service, 'notes', second);
    expect(statuses(response)).toEqual([EXISTS, SUCCESS]);
    const data = { created: 1, already_existing: 1 };
    await expectLastEvent(service, 'NT-8', ADDED, data, response);
    // The same request again adds nothing, and records nothing.
    const events = await timeline(service, 'NT-8');
    expect(statuses(await send(service, 'notes', second))).toEqual([EXISTS, EXISTS]);
    expect(await timeline(service, 'NT-8')).toEqual(events);
    const rows = await addedDocumentRows(service, number);
    expect(rows.map((row) => row.location)).toEqual([
      'account-documents/letters/L-1.pdf',
      'account-documents/letters/L-2.pdf',
    ]);
    expect(rows[0]?.source).toMatch(/^added\.notes\.\d+\.document_paths\.0\.document_path$/);
  });

  it('knows a note by its external_id, whatever else it says', async () => {
    await createAccount(service, 'NT-1');
    const note = { external_id: 'EXT-N-1', body: 'First words.' };
    expect(
      statuses(await send(service, 'notes', validBody('notes', 'NT-1', { notes: [note] }))),
    ).toEqual([SUCCESS]);
    const changed = { external_id: 'EXT-N-1', body: 'Other words.' };
    const other = { external_id: 'EXT-N-2', body: 'First words.' };
    const response = await send(
      service,
      'notes',
      validBody('notes', 'NT-1', { notes: [changed, other] }),
    );
    expect(statuses(response)).toEqual([EXISTS, SUCCESS]);
  });

  it('knows a note without external_id by its created_at and body', async () => {
    await createAccount(service, 'NT-2');
    const note = { body: 'Meter moved.', created_at: '2024-01-02T10:00:00Z' };
    const body = validBody('notes', 'NT-2', { notes: [note] });
    expect(statuses(await send(service, 'notes', body))).toEqual([SUCCESS]);
    const sameInstant = { body: 'Meter moved.', created_at: '2024-01-02T11:00:00+01:00' };
    const laterOne = { body: 'Meter moved.', created_at: '2024-01-03T10:00:00Z' };
    const response = await send(
      service,
      'notes',
      validBody('notes', 'NT-2', { notes: [sameInstant, laterOne] }),
    );
    expect(statuses(response)).toEqual([EXISTS, SUCCESS]);
  });

  it('finds the notes the account was created with', async () => {
    await createAccount(service, 'NT-3');
    // The factory account's first note, as created.
    const created = {
      body: 'Customer prefers calls after 5pm.',
      created_at: '2024-02-01T17:30:00Z',
    };
    const response = await send(service, 'notes', validBody('notes', 'NT-3', { notes: [created] }));
    expect(response.statusCode).toBe(201);
    expect(statuses(response)).toEqual([EXISTS]);
    expect((await timeline(service, 'NT-3')).map((e) => e.event)).not.toContain(ADDED);
  });

  it('adds a note repeated within the request once', async () => {
    await createAccount(service, 'NT-4');
    const note = { body: 'Twice.', external_id: 'T-1' };
    const response = await send(
      service,
      'notes',
      validBody('notes', 'NT-4', { notes: [note, note] }),
    );
    expect(statuses(response)).toEqual([SUCCESS, EXISTS]);
  });

  it('adds the notes of identical requests sent at once exactly once', async () => {
    await createAccount(service, 'NT-5');
    const notes = [
      { body: 'At once A.', external_id: 'AO-1' },
      { body: 'At once B.', created_at: '2024-05-01T00:00:00Z' },
    ];
    const body = validBody('notes', 'NT-5', { notes });
    const responses = await Promise.all([1, 2, 3].map(() => send(service, 'notes', body)));
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const all = responses.flatMap(statuses);
    expect(all.filter((status) => status === SUCCESS)).toHaveLength(2);
    const kept = (await additions(service, 'note')).filter((n) =>
      String(n.body).startsWith('At once'),
    );
    expect(kept).toHaveLength(2);
    const added = (await timeline(service, 'NT-5')).filter((e) => e.event === ADDED);
    expect(added.map((e) => e.data)).toEqual([{ created: 2, already_existing: 0 }]);
  });

  it('takes account_number, the deprecated name of external_account_number', async () => {
    await createAccount(service, 'NT-6');
    const { external_account_number: _name, ...rest } = validBody('notes', 'NT-6');
    const response = await send(service, 'notes', { ...rest, account_number: 'NT-6' });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses a request naming no account, and notes that say nothing, all at once', async () => {
    await createAccount(service, 'NT-7');
    const before = await rowCounts(service.db);
    const response = await send(service, 'notes', {
      import_supplier: 'DEMO',
      notes: [
        { is_pinned: true },
        { body: 'x', created_at: '2024-02-01T00:00:00Z', unpin_at: '2024-01-01T00:00:00Z' },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'required', attr: 'external_account_number' }),
        expect.objectContaining({
          code: 'note_body_or_document_path_not_found',
          attr: 'notes.0.body',
        }),
        expect.objectContaining({
          code: 'note_unpin_at_earlier_than_creation_date',
          attr: 'notes.1.unpin_at',
        }),
      ]),
    );
    expect(await rowCounts(service.db)).toEqual(before);
  });
});
