/**
 * Rules on portfolios, properties and smaller account objects: portfolio references, property
 * identifiers and administrators, campaigns, tax exemption dates and smart meter interest.
 * Readings taken where the publication leaves room:
 *
 * - Property identifiers are compared across `supply_addresses` (the only properties the
 *   payload declares); the second use is at fault.
 * - A campaign is identified by `slug` or the older `campaign_name`, one of them; it expires
 *   after the day it starts.
 * - A portfolio with settings needs a reference, unless the import supplier has a new
 *   portfolio created for each account (./supplier-rules.ts then refuses any reference).
 */
import { fail, isObject } from '../../payload/validators.js';
import { supplierSetting } from '../platform.js';
import { rule, type Check, type ObjectRules } from './object-rule.js';
import { filledIn, listOf, objectPath, objectsOf } from './shared.js';

const propertyIdentifiers: Check = (out, prefix, run) => {
  const seen = new Set<string>();
  const addresses = objectsOf(out.supply_addresses);
  for (let a = 0; a < addresses.length; a++) {
    const id = addresses[a]?.property_external_identifier;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) {
      fail(
        run,
        `${prefix}supply_addresses.${a}.property_external_identifier`,
        'duplicate_property_external_identifiers',
        'An earlier supply address already has this property identifier.',
      );
    } else seen.add(id);
  }
};

const uniqueReferenceNamespaces: Check = (out, prefix, run) => {
  const seen = new Set<unknown>();
  const references = objectsOf(out.portfolio_references);
  for (let r = 0; r < references.length; r++) {
    const namespace = references[r]?.namespace;
    if (namespace === undefined) continue;
    if (seen.has(namespace)) {
      fail(
        run,
        `${prefix}portfolio_references.${r}.namespace`,
        'duplicate_portfolio_references',
        'An earlier portfolio reference already uses this namespace.',
      );
    } else seen.add(namespace);
  }
};

const accountPortfolio: Check = (out, prefix, run, input) => {
  const references = input.portfolio_references;
  const none = references === undefined || (Array.isArray(references) && references.length === 0);
  // A supplier that has a new portfolio created for each account takes no reference at all.
  if (isObject(out.portfolio_settings) && none && !supplierSetting(run, 'create_new_portfolios')) {
    fail(
      run,
      `${prefix}portfolio_references`,
      'portfolio_references_missing',
      'A portfolio with settings needs a portfolio reference.',
    );
  }
  uniqueReferenceNamespaces(out, prefix, run, input);
};

const campaign: Check = (out, prefix, run, input) => {
  const [name, slug] = [filledIn(input.campaign_name), filledIn(input.slug)];
  if (name && slug) {
    if (typeof out.campaign_name === 'string' && typeof out.slug === 'string') {
      fail(
        run,
        `${prefix}campaign_name`,
        'campaign_name_and_slug_provided',
        'Identify the campaign by slug or by campaign_name, not both.',
      );
    }
  } else if (!name && !slug) {
    fail(
      run,
      objectPath(prefix),
      'campaign_name_or_slug_not_provided',
      'Identify the campaign by slug (or the older campaign_name).',
    );
  }
  const { start_date: start, expiry_date: expiry } = out;
  if (typeof start === 'string' && typeof expiry === 'string' && expiry <= start) {
    fail(
      run,
      `${prefix}expiry_date`,
      'start_date_same_as_end_date',
      'The campaign must expire after it starts.',
    );
  }
};

const taxExemption: Check = (out, prefix, run) => {
  const { effective_from: from, effective_to: to } = out;
  if (typeof from === 'string' && typeof to === 'string' && to <= from) {
    fail(
      run,
      `${prefix}effective_to`,
      'start_date_same_as_end_date',
      'An exemption must end after the day it starts.',
    );
  }
};

const smartInterest: Check = (out, prefix, run) => {
  if (out.type === 'INTERESTED' && out.refusal_reason !== undefined) {
    fail(
      run,
      `${prefix}refusal_reason`,
      'smart_refusal_reason_given_for_interest',
      'Someone interested in a smart meter has no reason to refuse one.',
    );
  }
};

const propertyAdministrators: Check = (_out, prefix, run, input) => {
  const administrators = listOf(input.property_administrators);
  for (let i = 1; i < administrators.length; i++) {
    fail(
      run,
      `${prefix}property_administrators.${i}`,
      'multiple_property_administrators',
      'A supply address has one property administrator at most.',
    );
  }
};

export const PORTFOLIO_RULES: ObjectRules = {
  EnergyAccount: rule(['duplicate_property_external_identifiers'], propertyIdentifiers),
  AccountPortfolio: rule(
    ['portfolio_references_missing', 'duplicate_portfolio_references'],
    accountPortfolio,
  ),
  BusinessPortfolio: rule(['duplicate_portfolio_references'], uniqueReferenceNamespaces),
  AccountCampaign: rule(
    [
      'campaign_name_and_slug_provided',
      'campaign_name_or_slug_not_provided',
      'start_date_same_as_end_date',
    ],
    campaign,
  ),
  EnergyTaxExemption: rule(['start_date_same_as_end_date'], taxExemption),
  EnergySmartRefusalInterest: rule(['smart_refusal_reason_given_for_interest'], smartInterest),
  EnergyLegacySupplyAddress: rule(['multiple_property_administrators'], propertyAdministrators),
};
