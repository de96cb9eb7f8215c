/**
 * The account's own records beside its people, supply and money: where bills go, notes,
 * references to the old system, campaigns, metadata and account-level consents.
 */
import { addDays } from './calendar.js';
import * as codes from './codes.js';
import type { Json } from './people.js';
import type { Prng } from './prng.js';
import { dateBetween, momentOn, type Timeline } from './timeline.js';
import * as uk from './uk-data.js';

/** The billing address as a structured address (the form v1 used too). */
export function billingAddress(home: uk.UkAddress): Json {
  return {
    country: 'GB',
    street_address: home.lines.join('\n'),
    locality: home.town,
    ...(home.county === undefined ? {} : { administrative_area: home.county }),
    postal_code: home.postcode,
  };
}

/** The billing address as the legacy lines most extracts still carry, with the name on the bill. */
export function legacyBillingLines(home: uk.UkAddress, billingName: string): Json {
  return {
    billing_name: billingName,
    billing_address1: home.lines[0],
    billing_address2: home.town,
    ...(home.county === undefined ? {} : { billing_address3: home.county }),
    billing_postcode: home.postcode,
  };
}

/** `count` notes written since supply started; in the full shape some carry a scanned letter. */
export function notes(
  random: Prng,
  t: Timeline,
  external: string,
  count: number,
  documents: boolean,
): Json[] {
  const list: Json[] = [];
  for (let i = 1; i <= count; i++) {
    const note: Json = {
      body: random.pick(uk.NOTES),
      created_at: momentOn(random, dateBetween(random, t.supplyStart, addDays(t.today, -1))),
    };
    if (random.chance(0.1)) note.is_pinned = true;
    if (documents && random.chance(0.4)) {
      note.document_paths = [{ document_path: `/notes/${external}/letter-${i}.pdf` }];
    }
    list.push(note);
  }
  return list;
}

/**
 * The account's number in the old CRM (its external account number, which no other account
 * has: a reference belongs to one account within its import supplier) and, sometimes, its payment
 * card reference.
 */
export function references(random: Prng, external: string, cardReference: boolean): Json[] {
  const list: Json[] = [{ namespace: codes.CRM_NAMESPACE, value: external }];
  if (cardReference) list.push({ namespace: codes.CARD_NAMESPACE, value: random.digits(10) });
  return list;
}

/** The campaign the customer joined through, one of the demo catalogue's. */
export function campaigns(random: Prng, t: Timeline): Json[] {
  const campaign = random.pick(codes.CAMPAIGNS);
  return [
    {
      slug: campaign.slug,
      campaign_note: `Joined through the ${campaign.name} campaign.`,
      start_date: dateBetween(random, t.dateOfSale, addDays(t.today, -1)),
    },
  ];
}

/** Facts of the old system kept with the account, with keys of its own. */
export function metadata(random: Prng, t: Timeline): Json[] {
  return [
    {
      key: 'legacy_tariff_name',
      value: random.pick(['Standard Variable', 'Fixed Saver', 'Green Fix']),
    },
    { key: 'legacy_account_opened', value: { date: t.dateOfSale, channel: 'web' } },
  ];
}

/** Consent given for the whole account: how often smart meter readings may be collected. */
export function accountConsents(random: Prng, t: Timeline): Json[] {
  return [
    {
      type: 'SMART_METER_DATA_COLLECTION',
      value: random.pick(['ACCEPTED', 'ACCEPTED', 'REJECTED']),
      signed_at: momentOn(random, dateBetween(random, t.supplyStart, addDays(t.today, -1))),
    },
  ];
}
