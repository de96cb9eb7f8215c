/**
 * First-run demo data: on an empty development database the service creates one organisation,
 * supplier and team, so a newcomer can obtain a token and call the API within a minute, and
 * imports the demo reference catalogue, so that the accounts they send name codes it knows.
 */
import { generateApiKey } from '../auth/api-keys.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { atomicWrite } from '../db/storage.js';
import { demoReferenceLines } from '../reference/reference.demo.js';
import { hasReferenceEntries, importReference } from '../reference/reference.service.js';
import { anyOrganisation, insertGrant, insertOrganisation } from './organisations.repository.js';
import { anySupplier, findSupplierId, insertSupplier } from './suppliers.repository.js';
import { anyTeam, insertTeam } from './teams.repository.js';

export interface DemoSeed {
  /** The demo organisation's API key, shown this once. */
  apiKey: string;
  organisation: string;
  supplier: string;
  team: string;
  /** Reference entries of the demo catalogue imported (0 when entries were there already). */
  referenceEntries: number;
}

const ORGANISATION = 'demo';
const SUPPLIER = 'DEMO';
const TEAM = 'Migrations';

/**
 * Seeds the demo data when not in production: the organisation, supplier and team when none of
 * them exists, the demo reference catalogue when no reference entry does. The seed is returned
 * when the organisation was created, undefined otherwise.
 */
export async function seedDemoIfEmpty(db: Db, config: Config): Promise<DemoSeed | undefined> {
  if (config.production) return undefined;
  const seed = await seedOperatorData(db);
  // Its own atomic write: the import serialises itself with every other reference write, so it
  // cannot join the one above. Seeded whenever the reference data is empty, a start after a
  // crash between the two writes still imports it; importing again would change nothing.
  const referenceEntries = (await hasReferenceEntries(db))
    ? 0
    : (await importReference(db, demoReferenceLines())).added;
  return seed && { ...seed, referenceEntries };
}

/**
 * The organisation, supplier and team, when none of them exists. It reads before it writes, so
 * on SQLite it takes the write lock first (atomicWrite), as addOrganisation does.
 */
function seedOperatorData(db: Db): Promise<Omit<DemoSeed, 'referenceEntries'> | undefined> {
  return atomicWrite(db, async (trx) => {
    if ((await anyOrganisation(trx)) || (await anySupplier(trx)) || (await anyTeam(trx))) {
      return undefined;
    }
    const now = Date.now();
    const key = generateApiKey();
    // Inserted first: when two instances start together the unique name makes the second
    // wait for the first and then find the name taken, before it has written anything.
    const organisationId = await insertOrganisation(trx, {
      name: ORGANISATION,
      enabled: 1,
      key_id: key.keyId,
      key_hash: key.keyHash,
      key_version: 1,
      created_at: now,
    });
    if (organisationId === undefined) return undefined;
    await insertSupplier(trx, {
      code: SUPPLIER,
      status: 'Ongoing',
      document_root: '/demo',
      customer_emails: 0,
      phone_region: 'GB',
      created_at: now,
    });
    await insertTeam(trx, TEAM, now);
    const supplierId = await findSupplierId(trx, SUPPLIER);
    if (supplierId !== undefined) await insertGrant(trx, organisationId, supplierId);
    return { apiKey: key.apiKey, organisation: ORGANISATION, supplier: SUPPLIER, team: TEAM };
  });
}

const TOKEN_QUERY =
  'mutation($k:String!){obtainToken(input:{apiKey:$k}){token refreshToken refreshExpiresIn}}';

const TINY_ACCOUNT = {
  import_supplier: SUPPLIER,
  external_account_number: 'DEMO-0001',
  billing_address: { country: 'GB', street_address: '1 Demo Street', postal_code: 'SW1A 1AA' },
  customers: [{ given_name: 'Ada', family_name: 'Lovelace' }],
};

// Reads the GraphQL answer from stdin and prints the token: node is there, jq may not be.
const EXTRACT_TOKEN =
  'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>' +
  'console.log(JSON.parse(s).data.obtainToken.token))';

/** Copy-pasteable first steps for the seeded demo: the key, a token request, a validation. */
export function demoInstructions(result: DemoSeed, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const tokenBody = JSON.stringify({ query: TOKEN_QUERY, variables: { k: result.apiKey } });
  return [
    'Demo data created (empty database, not production):',
    `  organisation  ${result.organisation}`,
    `  supplier      ${result.supplier} (Ongoing, document root /demo)`,
    `  team          ${result.team}`,
    ...(result.referenceEntries > 0
      ? [`  reference     ${result.referenceEntries} entries of the demo catalogue`]
      : []),
    '',
    `API key of organisation "${result.organisation}" (shown only this once):`,
    `  ${result.apiKey}`,
    '',
    '1. Obtain an access token and keep it in $TOKEN:',
    '',
    `TOKEN=$(curl -s -X POST '${base}/v1/graphql/' \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d '${tokenBody}' \\`,
    `  | node -e '${EXTRACT_TOKEN}')`,
    '',
    '2. Validate a tiny account with it:',
    '',
    `curl -s -X POST '${base}/v1/data-import/validate-account/' \\`,
    '  -H "Authorization: Token $TOKEN" \\',
    "  -H 'Content-Type: application/json' \\",
    `  -d '${JSON.stringify(TINY_ACCOUNT)}'`,
    '',
  ].join('\n');
}
