/** The people of a sample account: its customers (with priority needs and consents) and landlords. */
import { addDays, addMonths } from './calendar.js';
import * as codes from './codes.js';
import type { Prng } from './prng.js';
import { dateBetween, momentOn, type Timeline } from './timeline.js';
import * as uk from './uk-data.js';

export type Json = Record<string, unknown>;

/** The fuels an account is supplied with: a priority need is registered for each. */
export interface Fuels {
  electricity: boolean;
  gas: boolean;
}

/** A name and an e-mail address: all a minimal account says of its customer. */
export function minimalCustomer(random: Prng, family: string): Json {
  const given = random.pick(uk.GIVEN_NAMES);
  return { given_name: given, family_name: family, email: uk.emailFor(random, given, family) };
}

function person(random: Prng, family: string, t: Timeline): Json {
  const given = random.pick(uk.GIVEN_NAMES);
  return {
    title: random.pick(uk.TITLES),
    given_name: given,
    family_name: family,
    email: uk.emailFor(random, given, family),
    mobile: uk.mobile(random),
    date_of_birth: addDays(t.today, -random.int(18 * 366, 88 * 365)),
  };
}

/** A customer as most accounts have one: contact details, sometimes consents or a priority need. */
export function typicalCustomer(random: Prng, family: string, t: Timeline, fuels: Fuels): Json {
  const customer = person(random, family, t);
  if (random.chance(0.3)) customer.landline = uk.landline(random);
  if (random.chance(0.4)) customer.consents = consents(random, t);
  if (random.chance(0.2)) customer.psr = priorityNeeds(random, t, fuels, 1, false);
  return customer;
}

/** A customer with everything an account may say of them; the first one has priority needs. */
export function fullCustomer(
  random: Prng,
  family: string,
  t: Timeline,
  fuels: Fuels,
  first: boolean,
): Json {
  const customer = person(random, family, t);
  customer.salutation = random.chance(0.5)
    ? `Dear ${String(customer.title)} ${family}`
    : `Hi ${String(customer.given_name)}`;
  customer.landline = uk.landline(random);
  if (first || random.chance(0.2)) {
    customer.psr = priorityNeeds(random, t, fuels, random.int(1, 2), true);
  }
  // The publication takes either the older preference flags or consents, never both.
  if (random.chance(0.5)) customer.consents = consents(random, t);
  else customer.customer_preferences = preferences(random, customer.psr !== undefined);
  return customer;
}

/**
 * Priority Services Register entries: one per need and fuel, as the published example writes
 * them, with the need's description when `describe`; a temporary need was registered for a
 * year, and that year is over.
 */
function priorityNeeds(
  random: Prng,
  t: Timeline,
  fuels: Fuels,
  count: number,
  describe: boolean,
): Json[] {
  const entries: Json[] = [];
  const needs = new Set<codes.PsrNeed>();
  while (needs.size < count) needs.add(random.pick(codes.PSR_NEEDS));
  for (const need of needs) {
    const from = need.temporary
      ? dateBetween(random, t.movedIn, addMonths(t.today, -13))
      : dateBetween(random, t.movedIn, addDays(t.today, -30));
    const period: Json = {
      ...(describe ? { description: need.description } : {}),
      effective_from: `${from}T00:00:00Z`,
    };
    if (need.temporary) period.effective_to = `${addMonths(from, 12)}T00:00:00Z`;
    if (fuels.electricity) entries.push({ elec_industry_code: need.code, ...period });
    if (fuels.gas) entries.push({ gas_industry_code: need.code, ...period });
  }
  return entries;
}

function consents(random: Prng, t: Timeline): Json[] {
  return [
    { type: 'MARKETING_EMAIL', value: random.pick(['ACCEPTED', 'REJECTED']) },
    {
      type: 'MARKETING_SMS',
      value: random.pick(['ACCEPTED', 'REJECTED', 'UNKNOWN']),
      signed_at: momentOn(random, dateBetween(random, t.movedIn, addDays(t.today, -1))),
    },
  ];
}

function preferences(random: Prng, hasPriorityNeeds: boolean): Json {
  return {
    opted_into_sms: random.chance(0.5),
    opted_into_recommended: random.chance(0.7),
    opted_into_updates: random.chance(0.6),
    opted_into_third_parties: random.chance(0.1),
    opted_into_offers: random.chance(0.3),
    ...(hasPriorityNeeds ? { is_user_psr_consent_obtained: true } : {}),
  };
}

/** The landlord of a rented home, as the supply address's property administrator. */
export function landlord(random: Prng, t: Timeline): Json {
  const family = random.pick(uk.FAMILY_NAMES);
  const given = random.pick(uk.GIVEN_NAMES);
  const administrator: Json = {
    title: random.pick(uk.TITLES),
    given_name: given,
    family_name: family,
    email: uk.emailFor(random, given, family),
    mobile: uk.mobile(random),
    role: 'LANDLORD',
    effective_from: `${t.movedIn}T00:00:00Z`,
  };
  if (random.chance(0.5)) administrator.landline = uk.landline(random);
  return administrator;
}
