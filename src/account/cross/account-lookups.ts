/**
 * The account's codes that must name the platform's reference data (src/reference/): campaigns,
 * account reference namespaces, customer and business details (./detail-lookups.ts), complaint
 * types, sources and official organisations, contribution schemes, debt collection agencies,
 * dunning paths, affiliate and partner organisations, payment plan strategies and ledger types.
 * A field refused by its own checks is not in `out` and is not looked up. Codes are compared
 * exactly, once trimmed. Readings taken:
 *
 * - A campaign is looked up by `slug` (an entry's code) when it gives one, else by
 *   `campaign_name` (an entry's `name`); the field looked up is at fault.
 * - Portfolio references name no platform namespace: theirs is one of two published values.
 * - A debt's agency is looked up whenever it is named, with or without a start date.
 * - A complaint's unknown type is at fault at `type_of_complaint`; a known type listing
 *   subtypes refuses any other subtype (at `subtype_of_complaint`), one listing none takes any.
 *   The official organisation is looked up when given (at `official_entity`), its status only
 *   when the organisation is known, in the same way as a subtype (at `official_status`).
 * - Ledger codes are those of payment instructions (also one added after creation), payment
 *   schedules, the ledger of a payment adequacy change and the account's `ledgers`; payment
 *   promises name one without a rule.
 * - `standalone_payment_request_method_code` is not a declared field of a payment schedule, so
 *   its lookup has nothing to check.
 */
import { fail, type Parent, type Run } from '../../payload/validators.js';
import type { ReferenceKind } from '../../reference/reference.kinds.js';
import { referenceEntries, referenceEntry } from '../platform.js';
import { DETAIL_LOOKUP_RULES } from './detail-lookups.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

/** True when the field holds a checked code the platform has no `kind` entry for. */
const unknown = (run: Run, kind: ReferenceKind, code: unknown): code is string =>
  typeof code === 'string' && referenceEntry(run, kind, code) === undefined;

/** A rule reporting `code` at `field` when its value names no `kind` entry. */
function lookup(field: string, kind: ReferenceKind, code: string, detail: string): ObjectRule {
  return {
    codes: [code],
    check: (out, prefix, run) => {
      if (unknown(run, kind, out[field])) fail(run, `${prefix}${field}`, code, detail);
    },
  };
}

const ledgerCode = lookup(
  'ledger_code',
  'ledger_type',
  'ledger_code_does_not_exist',
  'The platform has no ledger type of this code.',
);

/** True when a campaign entry has this name. */
function campaignNamed(run: Run, name: string): boolean {
  for (const [, attributes] of referenceEntries(run, 'campaign')) {
    if (attributes.name === name) return true;
  }
  return false;
}

const campaign: ObjectRule = {
  codes: ['campaign_not_found'],
  check: (out, prefix, run) => {
    const { slug, campaign_name: name } = out;
    if (typeof slug === 'string') {
      if (unknown(run, 'campaign', slug)) {
        fail(
          run,
          `${prefix}slug`,
          'campaign_not_found',
          'The platform has no campaign of this slug.',
        );
      }
    } else if (typeof name === 'string' && !campaignNamed(run, name)) {
      fail(
        run,
        `${prefix}campaign_name`,
        'campaign_not_found',
        'The platform has no campaign of this name.',
      );
    }
  },
};

/** `value` among the `allowed` an entry lists; an entry listing none allows any. */
const allows = (allowed: readonly string[] | undefined, value: string) =>
  allowed === undefined || allowed.includes(value);

const complaint: ObjectRule = {
  codes: ['invalid_complaint_type_or_subtype', 'invalid_official_organization_or_status'],
  check: (out: Parent, prefix, run) => {
    const { type_of_complaint: type, subtype_of_complaint: subtype } = out;
    if (typeof type === 'string') {
      const entry = referenceEntry(run, 'complaint_type', type);
      if (entry === undefined) {
        fail(
          run,
          `${prefix}type_of_complaint`,
          'invalid_complaint_type_or_subtype',
          'The platform has no complaint type of this code.',
        );
      } else if (typeof subtype === 'string' && !allows(entry.subtypes, subtype)) {
        fail(
          run,
          `${prefix}subtype_of_complaint`,
          'invalid_complaint_type_or_subtype',
          'This subtype is not one of the complaint type.',
        );
      }
    }
    const { official_entity: organisation, official_status: status } = out;
    if (typeof organisation !== 'string') return;
    const entry = referenceEntry(run, 'official_complaints_organisation', organisation);
    if (entry === undefined) {
      fail(
        run,
        `${prefix}official_entity`,
        'invalid_official_organization_or_status',
        'The platform has no official complaints organisation of this code.',
      );
    } else if (typeof status === 'string' && !allows(entry.statuses, status)) {
      fail(
        run,
        `${prefix}official_status`,
        'invalid_official_organization_or_status',
        'The organisation does not use this status.',
      );
    }
  },
};

/** Every rule of this topic, by schema. */
export const ACCOUNT_LOOKUP_RULES: ObjectRules = {
  ...DETAIL_LOOKUP_RULES,
  AccountCampaign: campaign,
  AccountReference: lookup(
    'namespace',
    'reference_namespace',
    'invalid_reference_namespace',
    'The platform has no account reference namespace of this name.',
  ),
  Complaint: complaint,
  ComplaintContact: lookup(
    'communication_source',
    'complaint_source',
    'invalid_complaint_source',
    'The platform has no complaint source of this code.',
  ),
  ContributionSchemeAgreement: lookup(
    'scheme',
    'contribution_scheme',
    'invalid_contribution_scheme',
    'The platform has no contribution scheme of this code.',
  ),
  Debt: lookup(
    'agency_name',
    'debt_collection_agency',
    'debt_collection_agency_does_not_exist',
    'The platform has no debt collection agency of this name.',
  ),
  DunningPath: lookup(
    'path_name',
    'dunning_path',
    'dunning_path_not_found',
    'The platform has no dunning path of this name.',
  ),
  EnergyCommissionContract: lookup(
    'affiliate_organisation_name',
    'affiliate_organisation',
    'affiliate_organisation_does_not_exist',
    'The platform has no affiliate organisation of this name.',
  ),
  PartnerOrganisation: lookup(
    'organisation_number',
    'partner_organisation',
    'partner_organisation_does_not_exist',
    'The platform has no partner organisation of this number.',
  ),
  PaymentPlan: lookup(
    'strategy_name',
    'payment_plan_strategy',
    'payment_plan_strategy_does_not_exist',
    'The platform has no payment plan strategy of this name.',
  ),
  AccountLedger: ledgerCode,
  Ledger: ledgerCode,
  PaymentInstruction: ledgerCode,
  LegacyPaymentInstruction: ledgerCode,
  PaymentSchedule: ledgerCode,
};
