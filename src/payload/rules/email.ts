/** E-mail addresses, and the reserved domains that suggest test data leaked into an extract. */
import { text } from '../scalars.js';
import { fail, type, type Type } from '../validators.js';

const MAX_EMAIL = 254;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

const TEST_DOMAINS = new Set(['example.com', 'example.org', 'example.net', 'localhost']);
// RFC 2606 / RFC 6761 reserved names, whatever the sub-domain.
const TEST_SUFFIXES = [
  '.example.com',
  '.example.org',
  '.example.net',
  '.test',
  '.invalid',
  '.example',
  '.localhost',
];

/** True when the domain is reserved for examples and tests (never a real mailbox). */
export function isTestDomain(domain: string): boolean {
  const d = domain.toLowerCase();
  if (TEST_DOMAINS.has(d)) return true;
  for (const suffix of TEST_SUFFIXES) if (d.endsWith(suffix)) return true;
  return false;
}

/** The outcome of an address check: ok, malformed, or on a reserved test domain. */
export function emailProblem(
  address: string,
): 'invalid_email' | 'possible_test_email_address' | null {
  const at = address.lastIndexOf('@');
  if (at < 1 || at > 64 || at === address.length - 1) return 'invalid_email';
  const domain = address.slice(at + 1);
  if (domain.length > 253 || !LOCAL_PART.test(address.slice(0, at)) || !DOMAIN.test(domain)) {
    return 'invalid_email';
  }
  if (isTestDomain(domain)) return 'possible_test_email_address';
  const dot = domain.lastIndexOf('.');
  // A bare host name other than localhost cannot receive mail from the platform.
  if (dot < 0 || !TOP_LEVEL.test(domain.slice(dot + 1))) return 'invalid_email';
  return null;
}

/** A trimmed e-mail address of at most 254 characters on a real (non-reserved) domain. */
export const email: Type<string> = type(
  (value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    // A longer address is `invalid_email`: SMTP carries none (RFC 5321).
    if (s.length > MAX_EMAIL) {
      return fail(run, path, 'invalid_email', 'Enter an e-mail address of at most 254 characters.');
    }
    const problem = emailProblem(s);
    if (problem === 'invalid_email')
      return fail(run, path, problem, 'Enter a valid e-mail address.');
    if (problem !== null) {
      return fail(run, path, problem, 'This looks like a test address (reserved example domain).');
    }
    return s;
  },
  { type: 'string', format: 'email', maxLength: MAX_EMAIL },
);

/**
 * A published `email` field: the address's shape only (`invalid_email`), at most 254 characters
 * as SMTP allows; test addresses are a rule of their own where the publication names one.
 */
export function emailAddress(maxLength?: number): Type<string> {
  const schema: Record<string, unknown> = { type: 'string', format: 'email' };
  if (maxLength !== undefined) schema.maxLength = maxLength;
  return type((value, path, run) => {
    const s = text(value, path, run);
    if (typeof s !== 'string') return s;
    if (s.length > MAX_EMAIL || emailProblem(s) === 'invalid_email') {
      return fail(run, path, 'invalid_email', 'Enter a valid e-mail address.');
    }
    return s;
  }, schema);
}
