/**
 * The values created accounts hold alone within their import supplier's book
 * (src/account/claims.ts), kept in account_claims (migration 20261130_0010). The publication
 * checks them across the platform; here the scope is the supplier, so that an answer never
 * tells one organisation what another's accounts hold (docs/decisions.md, "Values an account
 * holds alone"). The account's write inserts its claims with it
 * (account-rows.ts), and the table's unique key refuses a value another account took first,
 * even in a concurrent creation; validation and staging look the values up beforehand
 * (refuseClaimed), so that a payload whose creation would be refused is refused already.
 */
import type { Kysely } from 'kysely';
import type { EnergyAccount } from '../account/account.js';
import { accountClaims, type AccountClaim } from '../account/claims.js';
import { compiledQuery, type Params } from '../db/compiled.js';
import type { Database, Executor, UniqueConstraint } from '../db/database.js';
import { validationFailed, type FieldError } from '../errors.js';
import { addFieldError } from '../payload/validators.js';

/** The claims' uniqueness: a violation means another account holds one of the values. */
export const CLAIMED_VALUES: UniqueConstraint = {
  name: 'account_claims_key',
  table: 'account_claims',
  columns: ['supplier_id', 'kind', 'namespace', 'value'],
};

/** A claim as account_claims keeps it: without where the payload gave it. */
export type ClaimRow = Omit<AccountClaim, 'attr'>;

const keyOf = ({ kind, namespace, value }: ClaimRow) => JSON.stringify([kind, namespace, value]);

/** The account's rows of account_claims: each value once, however often the payload repeats it. */
export function claimRows(payload: EnergyAccount): ClaimRow[] {
  const rows = new Map<string, ClaimRow>();
  for (const { kind, namespace, value } of accountClaims(payload)) {
    rows.set(keyOf({ kind, namespace, value }), { kind, namespace, value });
  }
  return [...rows.values()];
}

/** The account a payload is for: its supplier and external account number. */
export interface ClaimingAccount {
  supplierId: number;
  externalAccountNumber: string;
}

/** The most claims one lookup names (three parameters each): far below either engine's limit. */
const CLAIMS_PER_LOOKUP = 1_000;

/**
 * Lookups of up to this many claims keep their compiled statement, one per count: a payload
 * claims a few values, and building the query afresh cost more than running it.
 */
const KEPT_LOOKUP_CLAIMS = 16;

/** The claims among `some` that an account of the supplier other than `external` holds. */
function heldQuery(db: Kysely<Database>, supplierId: number, external: string, some: ClaimRow[]) {
  return db
    .selectFrom('account_claims as c')
    .innerJoin('accounts as a', 'a.id', 'c.account_id')
    .select(['c.kind', 'c.namespace', 'c.value'])
    .where('c.supplier_id', '=', supplierId)
    .where((eb) =>
      eb.or(
        some.map(({ kind, namespace, value }) =>
          eb.and([
            eb('c.kind', '=', kind),
            eb('c.namespace', '=', namespace),
            eb('c.value', '=', value),
          ]),
        ),
      ),
    )
    .where('a.external_account_number', '<>', external);
}

/** heldQuery of `count` claims, compiled once: claim i is the parameters k<i>, n<i>, v<i>. */
const keptLookup = (count: number) =>
  compiledQuery((db, p: Params<Record<string, unknown>>) =>
    heldQuery(
      db,
      p.supplierId as number,
      p.external as string,
      Array.from({ length: count }, (_, i) => ({
        kind: p[`k${i}`] as ClaimRow['kind'],
        namespace: p[`n${i}`] as string,
        value: p[`v${i}`] as string,
      })),
    ),
  );

const KEPT_LOOKUPS = new Map(
  Array.from({ length: KEPT_LOOKUP_CLAIMS }, (_, i) => [i + 1, keptLookup(i + 1)] as const),
);

async function heldAmong(
  db: Executor,
  some: ClaimRow[],
  { supplierId, externalAccountNumber: external }: ClaimingAccount,
): Promise<ClaimRow[]> {
  const kept = KEPT_LOOKUPS.get(some.length);
  if (kept === undefined) {
    return (await heldQuery(db, supplierId, external, some).execute()) as ClaimRow[];
  }
  const params: Record<string, unknown> = { supplierId, external };
  some.forEach(({ kind, namespace, value }, i) => {
    params[`k${i}`] = kind;
    params[`n${i}`] = namespace;
    params[`v${i}`] = value;
  });
  return (await kept(db, params)).rows as ClaimRow[];
}

/**
 * The claims whose value an account other than `claimant` holds (the claimant's own account,
 * once created, holds its values: re-staging it is refused as already imported); one statement
 * per 1,000 claims, none without claims.
 */
export async function claimedElsewhere(
  db: Executor,
  claims: readonly AccountClaim[],
  claimant: ClaimingAccount,
): Promise<AccountClaim[]> {
  const held = new Set<string>();
  for (let start = 0; start < claims.length; start += CLAIMS_PER_LOOKUP) {
    const some = claims.slice(start, start + CLAIMS_PER_LOOKUP);
    for (const row of await heldAmong(db, some, claimant)) held.add(keyOf(row));
  }
  return claims.filter((claim) => held.has(keyOf(claim)));
}

const DETAIL = {
  reference: 'Another account of this supplier already has this reference (namespace and value).',
  cais: 'Another account of this supplier already has this CAIS reference.',
} as const;

const CODE = {
  reference: 'reference_already_exists',
  cais: 'cais_reference_already_in_use_on_another_account',
} as const;

/** The field errors of claims held by other accounts, in payload order (capped as any list). */
export function claimErrors(claimed: readonly AccountClaim[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const { kind, attr } of claimed) {
    if (!addFieldError(errors, { detail: DETAIL[kind], code: CODE[kind], attr })) break;
  }
  return errors;
}

/**
 * Throws 400 account_failed_validation, with an error for each claim an account other than
 * `claimant` holds, should there be any. A payload that claims nothing costs no statement.
 */
export async function refuseClaimed(
  db: Executor,
  claims: readonly AccountClaim[],
  claimant: ClaimingAccount,
): Promise<void> {
  if (claims.length === 0) return;
  const claimed = await claimedElsewhere(db, claims, claimant);
  if (claimed.length > 0) throw validationFailed(claimErrors(claimed));
}
