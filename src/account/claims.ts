/**
 * The values an account claims for itself within its import supplier: each account reference
 * (namespace and value) and each debt's CAIS reference belongs to one account at most
 * (docs/decisions.md, "Claimed references"). Read from a valid, normalised payload, on the
 * event loop or a validation thread; the account store keeps them (src/accounts/account-claims.ts).
 */
import type { EnergyAccount } from './account.js';

export type ClaimKind = 'reference' | 'cais';

/** A value the account claims, and where the payload gives it. */
export interface AccountClaim {
  kind: ClaimKind;
  /** The reference's namespace; '' for a CAIS reference, which has none. */
  namespace: string;
  value: string;
  /** The path of the payload's object or field that gives the value. */
  attr: string;
}

/** Every claim of the payload, in payload order (a value the account repeats comes again). */
export function accountClaims(payload: EnergyAccount): AccountClaim[] {
  const claims: AccountClaim[] = [];
  payload.references?.forEach(({ namespace, value }, i) => {
    claims.push({ kind: 'reference', namespace, value, attr: `references.${i}` });
  });
  const cais = (value: string | undefined, attr: string) => {
    if (value) claims.push({ kind: 'cais', namespace: '', value, attr });
  };
  if (payload.debt) cais(payload.debt.cais_reference, 'debt.cais_reference');
  payload.debts?.forEach((debt, i) => cais(debt.cais_reference, `debts.${i}.cais_reference`));
  return claims;
}
