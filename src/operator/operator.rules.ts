/** Checks and normalises operator input; every failure is an OperatorError with a clear message. */
import { isSupportedCountry } from 'libphonenumber-js';
import { ACCOUNT_NUMBER } from '../accounts/account-rows.js';
import type { SupplierStatus } from '../db/database.js';
import { externalAccountNumberProblem } from '../payload/codes.js';
import { quoted } from '../shared/quoted.js';
import { OperatorError } from '../shared/operator-error.js';
import { SUPPLIER_CODE, SUPPLIER_CODE_RULE } from './supplier-code.js';

const STATUSES: readonly SupplierStatus[] = ['Ongoing', 'Paused', 'Complete'];
// Same characters as a document path segment (payload/rules/document-path.ts), so root + path is a clean path.
const FORBIDDEN_IN_ROOT = /[\\?#\s\p{Cc}]/u;

export function supplierCode(raw: string): string {
  const code = raw.trim();
  if (!SUPPLIER_CODE.test(code)) {
    throw new OperatorError(`invalid supplier code ${quoted(raw)}: ${SUPPLIER_CODE_RULE}`);
  }
  return code;
}

/** Accepts any letter case ("paused", "PAUSED") and returns the canonical spelling. */
export function supplierStatus(raw: string): SupplierStatus {
  const wanted = raw.trim().toLowerCase();
  const status = STATUSES.find((s) => s.toLowerCase() === wanted);
  if (status === undefined) {
    throw new OperatorError(`unknown status ${quoted(raw)}: use one of ${STATUSES.join(', ')}`);
  }
  return status;
}

/** '' or '/a/b'; one trailing slash is dropped because paths bring their own leading one. */
export function documentRoot(raw: string): string {
  let root = raw.trim();
  if (root.endsWith('/')) root = root.slice(0, -1);
  if (root === '') return '';
  const segments = root.split('/').slice(1);
  const bad =
    !root.startsWith('/') ||
    FORBIDDEN_IN_ROOT.test(root) ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad || root.length > 1024) {
    throw new OperatorError(
      `invalid document root ${quoted(raw)}: use "" or a path like /bucket-prefix/supplier ` +
        '(starts with "/", no empty, "." or ".." segments, no spaces, "\\", "?" or "#")',
    );
  }
  return root;
}

export function phoneRegion(raw: string): string {
  const region = raw.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(region) || !isSupportedCountry(region)) {
    throw new OperatorError(
      `invalid phone region ${quoted(raw)}: use an ISO 3166-1 alpha-2 country code such as GB`,
    );
  }
  return region;
}

/**
 * A line break or escape sequence in a name or reason would garble the operator's listings, and
 * a bidirectional formatting character (an override such as U+202E, an isolate, a mark) would
 * make the text shown differ from the text stored: "acme\u202Eevil" is listed as "acmelive".
 */
const UNSHOWABLE = /[\p{Cc}\p{Bidi_Control}]/u;

/**
 * Names of organisations and teams: trimmed, 1 to 255 characters, no control or bidirectional
 * formatting characters.
 */
export function displayName(kind: string, raw: string): string {
  const name = raw.trim();
  if (name === '' || [...name].length > 255 || UNSHOWABLE.test(name)) {
    throw new OperatorError(
      `invalid ${kind} name ${quoted(raw)}: use 1 to 255 characters, without control ` +
        'or bidirectional formatting characters',
    );
  }
  return name;
}

/** The payload's rule for external_account_number, so that a mark can match a real account. */
export function externalAccountNumber(raw: string): string {
  const value = raw.trim();
  if (externalAccountNumberProblem(value)) {
    throw new OperatorError(
      `invalid external account number ${quoted(raw)}: use 1 to 128 characters without ` +
        'spaces, "/", "?", "#", "%" or control characters, other than "." and ".."',
    );
  }
  return value;
}

/** An account number, `A-` and 8 hex digits; any letter case, as they are upper-case. */
export function accountNumber(raw: string): string {
  const value = raw.trim().toUpperCase();
  if (!ACCOUNT_NUMBER.test(value)) {
    throw new OperatorError(
      `invalid account number ${quoted(raw)}: use A- and 8 hex digits, such as A-1F2E3D4C, ` +
        'or give the import supplier code and the external account number',
    );
  }
  return value;
}

/** An optional free-text reason: trimmed, empty means none. */
export function reason(raw: string | undefined): string | null {
  const value = raw?.trim() ?? '';
  if ([...value].length > 1000)
    throw new OperatorError('the reason is longer than 1000 characters');
  if (UNSHOWABLE.test(value)) {
    throw new OperatorError('the reason holds a control or bidirectional formatting character');
  }
  return value === '' ? null : value;
}
