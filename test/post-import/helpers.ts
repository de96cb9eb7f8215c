/**
 * What the post-import tests share: the endpoints' paths, a created demo account to add to,
 * the published example bodies adapted to it, and a request to each endpoint.
 */
import { buildAccount } from '../account/factory.js';
import { example, HAS_REFERENCE } from '../account/reference.js';
import { createDemoAccount, type TestService } from '../helpers/app.js';

export { HAS_REFERENCE };

type Json = Record<string, unknown>;

export const POST_IMPORT_PATHS = {
  statements: '/v1/data-import/historical-statements/create/',
  notes: '/v1/data-import/notes/create/',
  paymentInstruction: '/v1/data-import/payment-instruction/create/',
} as const;

export type Endpoint = keyof typeof POST_IMPORT_PATHS;

/** Creates a demo account (the factory's: statements S-1 to S-3, two notes, a DIRECT_DEBIT instruction). */
export function createAccount(service: TestService, external: string): Promise<string> {
  return createDemoAccount(service, buildAccount({ external_account_number: external }));
}

/** A published example body, naming the demo supplier's account `external`. */
export function publishedExample(endpoint: Endpoint, external: string): Json {
  const file = {
    statements: 'historical-statements.json',
    notes: 'notes.json',
    paymentInstruction: 'payment-instruction.json',
  }[endpoint];
  return { ...example(file), import_supplier: 'DEMO', external_account_number: external };
}

/** A valid body of each endpoint for the demo account `external` (`extra` adds or overrides). */
export function validBody(endpoint: Endpoint, external: string, extra: Json = {}): Json {
  const name = { import_supplier: 'DEMO', external_account_number: external };
  const bodies: Record<Endpoint, Json> = {
    statements: {
      ...name,
      statements: [
        {
          statement_id: 'H-1',
          bill_period_from_date: '2023-01-01',
          bill_period_to_date: '2023-01-31',
          statement_path: 'statements/2023/H-1.pdf',
        },
      ],
    },
    notes: { ...name, notes: [{ body: 'Called about a meter reading.', external_id: 'N-1' }] },
    paymentInstruction: { ...name, type: 'CARD', vendor: 'STRIPE', reference: 'CARD-0001' },
  };
  return { ...bodies[endpoint], ...extra };
}

/** Sends `body` to the endpoint with the service's token. */
export function send(service: TestService, endpoint: Endpoint, body: unknown) {
  return service.request({
    method: 'POST',
    url: POST_IMPORT_PATHS[endpoint],
    payload: body as Json,
  });
}

/** The rows added to accounts by the post-import endpoints, of one kind. */
export async function additions(service: TestService, kind: string): Promise<Json[]> {
  const rows = await service.db.kysely
    .selectFrom('account_additions')
    .select('data')
    .where('kind', '=', kind)
    .orderBy('id')
    .execute();
  return rows.map((row) => JSON.parse(row.data) as Json);
}

/** Where the documents named by items added to the account `number` are kept. */
export async function addedDocumentRows(service: TestService, number: string) {
  return service.db.kysely
    .selectFrom('account_documents as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['d.source', 'd.path', 'd.location'])
    .where('a.number', '=', number)
    .where('d.source', 'like', 'added.%')
    .orderBy('d.id')
    .execute();
}
