/**
 * Rules on the people of an account: customers and business users (one form of details, a real
 * name, roles, consents), business users against customers, priority needs and the contracts
 * a business links through. Readings taken where the publication leaves room:
 *
 * - A business user and a customer with the same e-mail address are one person: given and
 *   family names, title, phones and date of birth given on both must agree.
 * - A customer or business user is named "The Occupier" when the given and family names
 *   together read so (case and spacing aside). With contact details it is refused for them
 *   (each detail), without them for the name.
 * - Roles: a customer sending `account_roles` or `portfolio_roles` must name at least one role
 *   there (or in the deprecated `role`); one sending none takes the platform's default.
 */
import { fail, isObject, type Parent } from '../../payload/validators.js';
import { rule, type Check, type ObjectRules } from './object-rule.js';
import { filledIn, listOf, nonEmpty, objectPath, objectsOf } from './shared.js';

const SAME_PERSON_FIELDS = [
  'given_name',
  'family_name',
  'title',
  'mobile',
  'landline',
  'date_of_birth',
];

/** A business user agrees with the customer who has the same e-mail address. */
const usersMatchCustomers: Check = (out, prefix, run) => {
  const byEmail = new Map<string, Parent>();
  for (const customer of objectsOf(out.customers)) {
    if (typeof customer?.email === 'string') {
      byEmail.set(customer.email.toLowerCase(), customer);
    }
  }
  const users = isObject(out.business) ? objectsOf(out.business.users) : [];
  for (let u = 0; u < users.length; u++) {
    const user = users[u];
    const customer =
      typeof user?.email === 'string' ? byEmail.get(user.email.toLowerCase()) : undefined;
    if (user === undefined || customer === undefined) continue;
    for (const field of SAME_PERSON_FIELDS) {
      const [mine, theirs] = [user[field], customer[field]];
      if (typeof mine === 'string' && typeof theirs === 'string' && mine !== theirs) {
        fail(
          run,
          `${prefix}business.users.${u}.${field}`,
          'customer_details_and_user_details_both_provided',
          `This differs from the ${field} of the customer with the same e-mail address.`,
        );
      }
    }
  }
};

const CONTACT_FIELDS = [
  'email',
  'mobile',
  'landline',
  'contact_emails',
  'alternative_phone_numbers',
];

const namedTheOccupier = (out: Parent) =>
  [out.given_name, out.family_name]
    .filter((name) => typeof name === 'string')
    .join(' ')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase() === 'the occupier';

/** What customers and business users share: one form of details, a real name. */
const person: Check = (out, prefix, run, input) => {
  if (nonEmpty(input.user_details) && filledIn(input.details)) {
    fail(
      run,
      `${prefix}details`,
      'customer_details_and_user_details_both_provided',
      'Send user_details or the older details, not both.',
    );
  }
  if (!namedTheOccupier(out)) return;
  const contacts = CONTACT_FIELDS.filter((field) => filledIn(out[field]));
  for (const field of contacts) {
    fail(
      run,
      `${prefix}${field}`,
      'contact_details_for_occupier',
      'Someone with contact details is known, so not "The Occupier".',
    );
  }
  if (contacts.length === 0) {
    const at = typeof out.family_name === 'string' ? 'family_name' : 'given_name';
    fail(
      run,
      `${prefix}${at}`,
      'customer_may_not_be_named_the_occupier',
      'Mark an unknown occupier with unknown_occupier on the account, not by name.',
    );
  }
};

const ROLE_LISTS = ['account_roles', 'portfolio_roles'];

const customerRolesAndConsents: Check = (out, prefix, run, input) => {
  const sent = ROLE_LISTS.filter((field) => input[field] !== undefined);
  const checked = sent.every((field) => Array.isArray(out[field]));
  const roles = sent.reduce((n, field) => n + listOf(out[field]).length, 0);
  if (sent.length > 0 && checked && roles === 0 && out.role == null) {
    fail(
      run,
      `${prefix}${sent[0] as string}`,
      'required_user_role',
      'Name at least one role in account_roles or portfolio_roles.',
    );
  }
  if (out.customer_preferences !== undefined && nonEmpty(out.consents)) {
    fail(
      run,
      `${prefix}customer_preferences`,
      'fields_are_mutually_exclusive',
      'Send consents or the older customer_preferences, not both.',
    );
  }
};

const priorityNeed: Check = (_out, prefix, run, input) => {
  if (!filledIn(input.elec_industry_code) && !filledIn(input.gas_industry_code)) {
    fail(
      run,
      objectPath(prefix),
      'psr_industry_code_not_provided',
      'Give an electricity or a gas industry code.',
    );
  }
};

const contractIdentifier: Check = (_out, prefix, run, input) => {
  const single = input.business_contract_identifier;
  const given =
    nonEmpty(input.business_contract_identifiers) ||
    (single !== undefined && !(typeof single === 'string' && single.trim() === ''));
  if (!given) {
    fail(
      run,
      `${prefix}business_contract_identifiers`,
      'missing_contract_identifier',
      'Give at least one business contract identifier.',
    );
  }
};

const PERSON_CODES = [
  'customer_details_and_user_details_both_provided',
  'contact_details_for_occupier',
  'customer_may_not_be_named_the_occupier',
];

export const CUSTOMER_RULES: ObjectRules = {
  EnergyAccount: rule(['customer_details_and_user_details_both_provided'], usersMatchCustomers),
  EnergyCustomer: rule(
    [...PERSON_CODES, 'required_user_role', 'fields_are_mutually_exclusive'],
    person,
    customerRolesAndConsents,
  ),
  BusinessUser: rule(PERSON_CODES, person),
  EnergyPSR: rule(['psr_industry_code_not_provided'], priorityNeed),
  BusinessWithExistingContracts: rule(['missing_contract_identifier'], contractIdentifier),
};
