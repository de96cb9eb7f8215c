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
import type { EnergyAccount } from '../account/account.js';
import { accountClaims, type AccountClaim } from '../account/claims.js';
import type { Executor, UniqueConstraint } from '../db/database.js';
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
    const rows = await db
      .selectFrom('account_claims as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .select(['c.kind', 'c.namespace', 'c.value'])
      .where('c.supplier_id', '=', claimant.supplierId)
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
      .where('a.external_account_number', '<>', claimant.externalAccountNumber)
      .execute();
    for (const row of rows) held.add(keyOf(row as ClaimRow));
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
