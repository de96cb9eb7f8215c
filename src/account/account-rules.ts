/**
 * Rules that compare the items of the account's other lists: payment schedules, instructions
 * and plans, deposits, contribution agreements, campaigns and customers. Attached by
 * ./field-rules.ts; the readings chosen are in ./README.md.
 */
import { fail, isObject, type Parent } from '../payload/validators.js';
import { periods } from './periods.js';
import {
  allOf,
  allOrNone,
  atMost,
  listRule,
  uniqueEntries,
  type Entry,
  type FieldRule,
} from './rules.js';

/**
 * EnergyAccount.payment_schedules: ledger codes on all or none; then, per ledger code and
 * leaving debt repayment plans aside, one open-ended schedule, no overlaps, and no gap before
 * a schedule that starts after today. A schedule's `end_date` is its last day.
 */
export const paymentSchedules: FieldRule = allOf(
  allOrNone(
    'ledger_code',
    'payment_schedules_ledger_code_uniformity_failed',
    'Give a ledger_code on every payment schedule or on none.',
  ),
  periods(
    { from: 'start_date', to: 'end_date', end: 'last-day' },
    {
      groupBy: (schedule) => String(schedule.ledger_code ?? ''),
      include: (schedule) => schedule.is_debt_repayment_plan !== true,
      openEnded: 'multiple_open_ended_payment_schedules',
      overlaps: 'payment_schedule_date_overlaps',
      gaps: 'payment_schedule_date_gaps',
      futureGapsOnly: true,
    },
  ),
);

export const paymentInstructions: FieldRule = allOrNone(
  'ledger_code',
  'payment_instructions_ledger_code_uniformity_failed',
  'Give a ledger_code on every payment instruction or on none.',
);

function* paymentComponents(payment: Parent, p: number): Iterable<Entry> {
  const components = Array.isArray(payment.amount_components) ? payment.amount_components : [];
  for (let c = 0; c < components.length; c++) {
    const type = (components[c] as Parent | undefined)?.component_type;
    if (typeof type !== 'string') continue;
    const key = `${String(payment.payment_date)}\u0000${type}`;
    yield { key, at: `${p}.amount_components.${c}.component_type` };
  }
}

/** PaymentPlan.payments: a component type once per payment date. */
export const paymentPlanPayments: FieldRule = uniqueEntries<Parent>(
  'duplicate_payment_component_combinations',
  paymentComponents,
);

/** Agreements of one scheme may not share a day (`active_period_end_date` is the last day). */
export const contributionAgreements: FieldRule = periods(
  { from: 'active_period_start_date', to: 'active_period_end_date', end: 'last-day' },
  {
    groupBy: (agreement) => String(agreement.scheme),
    overlaps: 'overlapping_contribution_agreements',
  },
);

/** The payload has no end to a deposit agreement, so each one given is active: one at most. */
export const depositAgreements: FieldRule = atMost(
  1,
  'multiple_active_deposits_not_allowed',
  'An account may hold only one active deposit agreement.',
);

/** Which field identifies a campaign; undefined when it gives both or neither (object rules). */
function campaignIdentifier(campaign: Parent): 'slug' | 'campaign_name' | undefined {
  const slug = typeof campaign.slug === 'string';
  const name = typeof campaign.campaign_name === 'string';
  if (slug === name) return undefined;
  return slug ? 'slug' : 'campaign_name';
}

const INCONSISTENT_CAMPAIGNS = 'inconsistent_campaign_identifiers';

/** EnergyAccount.account_campaigns: all by slug or all by name, and each campaign once. */
export const accountCampaigns: FieldRule = allOf(
  listRule<Parent>([INCONSISTENT_CAMPAIGNS], (campaigns, path, run) => {
    const identifiers = new Set(
      campaigns.map((c) => (c === undefined ? c : campaignIdentifier(c))),
    );
    identifiers.delete(undefined);
    if (identifiers.size > 1) {
      fail(
        run,
        path,
        INCONSISTENT_CAMPAIGNS,
        'Identify every campaign by slug, or every one by campaign_name.',
      );
    }
  }),
  uniqueEntries<Parent>('duplicate_account_campaigns', (campaign, i) => {
    const field = campaignIdentifier(campaign);
    if (field === undefined) return [];
    return [{ key: `${field}\u0000${String(campaign[field])}`, at: `${i}.${field}` }];
  }),
);

/** The user detail namespaces whose values no two customers may share. */
const UNIQUE_DETAIL_NAMESPACES: readonly string[] = ['external_user_id'];

/** A customer's values in the unique namespaces (`user_details`, or the older `details`). */
function uniqueDetails(customer: Parent, c: number): Entry[] {
  const entries: Entry[] = [];
  const details = Array.isArray(customer.user_details) ? customer.user_details : [];
  for (let d = 0; d < details.length; d++) {
    const detail = details[d] as Parent | undefined;
    const namespace = detail?.namespace;
    if (typeof namespace !== 'string' || !UNIQUE_DETAIL_NAMESPACES.includes(namespace)) continue;
    const key = `${namespace}\u0000${JSON.stringify(detail?.value)}`;
    entries.push({ key, at: `${c}.user_details.${d}.value` });
  }
  const legacy = customer.details;
  if (isObject(legacy)) {
    for (const namespace of UNIQUE_DETAIL_NAMESPACES) {
      if (legacy[namespace] === undefined) continue;
      const key = `${namespace}\u0000${JSON.stringify(legacy[namespace])}`;
      entries.push({ key, at: `${c}.details.${namespace}` });
    }
  }
  // Only other customers count: a customer repeating its own value is not compared here.
  return entries.filter((entry, i) => entries.findIndex((e) => e.key === entry.key) === i);
}

/** EnergyAccount.customers: no two customers with the same value in a unique namespace. */
export const customers: FieldRule = uniqueEntries<Parent>(
  'repeated_values_for_unique_customer_detail_namespace',
  uniqueDetails,
);
