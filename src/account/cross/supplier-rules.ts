/**
 * Rules that depend on the import supplier's rule settings (../../settings/): what is created
 * for its accounts (properties, supply points, portfolios), whether its meter points are
 * registered with the industry, whether its business accounts must give a business, and where
 * its accounts' operations team comes from. Every default allows the published example.
 * Readings taken:
 *
 * - Supply points are the supply addresses' `meter_points`. With supply point creation skipped,
 *   no address may give any (each one that does is at fault); otherwise an account giving
 *   supply addresses gives at least one meter point among them (an address may still be given
 *   for its property alone). An account without supply addresses is not concerned, and neither
 *   are the addresses of a supplier that skips property creation (they are refused themselves).
 * - Agents to appoint are a meter point's `da_to_appoint`, `dc_to_appoint`, `mop_to_appoint`
 *   and `mam_to_appoint`; each one given is refused when registration flows are not sent.
 * - A business account is one whose type starts with BUSINESS (`account_type` only: the
 *   deprecated flags name no business type). Its customers need a given name when registration
 *   flows are sent, and it needs `business` when business contracts are enforced.
 * - A portfolio named by reference: the account's `portfolio` and each business portfolio.
 * - A business with contracts (`BusinessWithExistingContracts`) is linked to the business its
 *   contract identifiers name when the supplier links by contract: then each field of business
 *   information it gives (all but the contract identifiers) is refused at that field. When the
 *   supplier does not, the business is created from the payload and needs some of that
 *   information: one with none is refused at the business itself.
 * - An account naming an operations team is refused when the supplier allocates its accounts
 *   to a team itself. An account naming none is accepted either way: the process request names
 *   the team when the supplier allocates none, and reports `operations_team_should_be_provided`
 *   when it does not (../../imports/creation/creation.service.ts).
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { supplierSetting } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';
import { fieldIntact, filledIn, objectPath } from './shared.js';

const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const objectsOf = (value: unknown): (Parent | undefined)[] =>
  listOf(value).map((item) => (isObject(item) ? item : undefined));
const nonEmpty = (value: unknown) => Array.isArray(value) && value.length > 0;
const isEmptyList = (value: unknown) => Array.isArray(value) && value.length === 0;
/** Not given: absent or blank (a null the field refuses has its own error). */
const blank = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.trim() === '');
const holdsText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

const isBusiness = (out: Parent) =>
  typeof out.account_type === 'string' && out.account_type.startsWith('BUSINESS');

const AGENTS_TO_APPOINT = ['da_to_appoint', 'dc_to_appoint', 'mop_to_appoint', 'mam_to_appoint'];

/** Properties and supply points the supplier does, or does not, have created. */
const supplyAddresses = (out: Parent, prefix: string, run: Run, input: Parent) => {
  if (!nonEmpty(input.supply_addresses)) return;
  if (supplierSetting(run, 'skip_property_creation')) {
    fail(
      run,
      `${prefix}supply_addresses`,
      'supply_addresses_provided_while_skip_property_creation_enabled',
      'No property is created for this supplier’s accounts: send no supply addresses.',
    );
    return;
  }
  const addresses = objectsOf(input.supply_addresses);
  if (!supplierSetting(run, 'skip_supply_point_creation')) {
    if (addresses.every((address) => address !== undefined && isEmptyList(address.meter_points))) {
      fail(
        run,
        `${prefix}supply_addresses`,
        'supply_points_not_provided_while_skip_supply_point_creation_disabled',
        'Supply points are created for this supplier’s accounts: send the meter points.',
      );
    }
    return;
  }
  addresses.forEach((address, a) => {
    if (nonEmpty(address?.meter_points)) {
      fail(
        run,
        `${prefix}supply_addresses.${a}.meter_points`,
        'supply_points_provided_while_skip_supply_point_creation_enabled',
        'No supply point is created for this supplier’s accounts: send no meter points.',
      );
    }
  });
};

/** Agents to appoint are only for meter points registered with the industry. */
const agentsToAppoint = (out: Parent, prefix: string, run: Run) => {
  if (supplierSetting(run, 'send_registration_flows')) return;
  objectsOf(out.supply_addresses).forEach((address, a) => {
    objectsOf(address?.meter_points).forEach((point, m) => {
      for (const name of AGENTS_TO_APPOINT) {
        if (holdsText(point?.[name])) {
          fail(
            run,
            `${prefix}supply_addresses.${a}.meter_points.${m}.${name}`,
            'agents_supplied_for_non_on_market_switch',
            'This supplier sends no registration flows, so no agent is appointed.',
          );
        }
      }
    });
  });
};

const businessAccount = (out: Parent, prefix: string, run: Run, input: Parent) => {
  if (!isBusiness(out)) return;
  if (supplierSetting(run, 'send_registration_flows')) {
    objectsOf(input.customers).forEach((customer, c) => {
      if (customer !== undefined && blank(customer.given_name)) {
        fail(
          run,
          `${prefix}customers.${c}.given_name`,
          'customer_given_name_required',
          'Registration flows are sent for this supplier: each customer of a business account needs a given name.',
        );
      }
    });
  }
  const noBusiness = input.business === undefined || out.business === null;
  if (noBusiness && supplierSetting(run, 'enforce_business_contracts')) {
    fail(
      run,
      `${prefix}business`,
      'business_field_required',
      'This supplier enforces business contracts: a business account needs its business.',
    );
  }
};

const operationsTeam = (out: Parent, prefix: string, run: Run) => {
  const team = supplierSetting(run, 'auto_allocation_team');
  if (team !== null && typeof out.operations_team_name === 'string') {
    fail(
      run,
      `${prefix}operations_team_name`,
      'operations_team_provided_when_using_auto_allocation',
      `This supplier's accounts go to the team ${team}: send no operations team.`,
    );
  }
};

const energyAccount: ObjectRule = {
  codes: [
    'agents_supplied_for_non_on_market_switch',
    'business_field_required',
    'customer_given_name_required',
    'operations_team_provided_when_using_auto_allocation',
    'supply_addresses_provided_while_skip_property_creation_enabled',
    'supply_points_not_provided_while_skip_supply_point_creation_disabled',
    'supply_points_provided_while_skip_supply_point_creation_enabled',
  ],
  check: (out, prefix, run, input) => {
    supplyAddresses(out, prefix, run, input);
    agentsToAppoint(out, prefix, run);
    businessAccount(out, prefix, run, input);
    operationsTeam(out, prefix, run);
  },
};

/** A portfolio named by reference, where the supplier has a new one created for each account. */
const portfolioReferences: ObjectRule = {
  codes: ['portfolio_references_provided'],
  check: (out, prefix, run, input) => {
    if (nonEmpty(input.portfolio_references) && supplierSetting(run, 'create_new_portfolios')) {
      fail(
        run,
        `${prefix}portfolio_references`,
        'portfolio_references_provided',
        'This supplier has a new portfolio created for each account: send no portfolio reference.',
      );
    }
  },
};

/** What a business with contracts tells of the business itself: all but its contract identifiers. */
const BUSINESS_INFORMATION = [
  'business_type',
  'company_name',
  'company_number',
  'details',
  'portfolios',
  'segment_name',
  'users',
] as const;

const LINKED = 'business_information_not_required_if_linking_via_contract';
const CREATED = 'business_information_required_if_not_linking_via_contract';

/** Business information given, or not, as the supplier links accounts by contract or not. */
const businessWithContracts: ObjectRule = {
  codes: [CREATED, LINKED],
  check: (out, prefix, run, input) => {
    if (supplierSetting(run, 'link_account_to_business_with_contract')) {
      for (const name of BUSINESS_INFORMATION) {
        if (filledIn(input[name]) && fieldIntact(out, input, name)) {
          fail(
            run,
            `${prefix}${name}`,
            LINKED,
            'This supplier links the account to the business its contracts name: send no business information.',
          );
        }
      }
    } else if (!BUSINESS_INFORMATION.some((name) => filledIn(input[name]))) {
      fail(
        run,
        objectPath(prefix),
        CREATED,
        'This supplier does not link accounts by contract: send the business information (its name, number, …).',
      );
    }
  },
};

/** The rules that read the import supplier's rule settings, by schema. */
export const SUPPLIER_RULES: ObjectRules = {
  EnergyAccount: energyAccount,
  AccountPortfolio: portfolioReferences,
  BusinessPortfolio: portfolioReferences,
  BusinessWithExistingContracts: businessWithContracts,
};
