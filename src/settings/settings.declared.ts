/**
 * Every setting the account rules read, declared once: the platform's (one value for the whole
 * instance) and each import supplier's rule settings. Adding a setting is one more entry here;
 * storage, the CLI, listings and defaults follow from it.
 */
import { bool } from '../payload/scalars.js';
import { isObject, type Type } from '../payload/validators.js';
import {
  amountAtLeastZero,
  checkValue,
  emailItem,
  listOf,
  namespaceItem,
  onOff,
  roleItem,
  teamOrNone,
  wholeNumber,
  type ValueKind,
} from './settings.values.js';

/** A setting of the platform, set with `account-import settings set KEY VALUE`. */
export interface PlatformSettingDeclaration<T> extends ValueKind<T> {
  /** What it decides, for the operator's help and the docs. */
  readonly summary: string;
  /** Its value on a fresh install and after `settings reset`. */
  readonly default: T;
  /** The published rule codes that read it. */
  readonly rules: readonly string[];
}

function platform<T>(
  kind: ValueKind<T>,
  fallback: T,
  summary: string,
  rules: readonly string[],
): PlatformSettingDeclaration<T> {
  return { ...kind, default: fallback, summary, rules };
}

const PAYMENT_DAY = wholeNumber(1, 31);

/**
 * The defaults let a fresh install accept the published example account: what it carries is
 * allowed, and no check it does not pass (a file store, required namespaces) is on.
 */
export const PLATFORM_SETTINGS = {
  managed_accounts_allowed: platform(onOff, true, 'accounts may be managed accounts', [
    'managed_accounts_are_not_allowed',
  ]),
  consents_enabled: platform(onOff, true, 'accounts and customers may carry consents', [
    'field_not_enabled',
  ]),
  cais_references_supported: platform(onOff, true, 'accounts may carry a CAIS reference', [
    'cais_references_not_supported',
  ]),
  payment_day_min: platform(
    PAYMENT_DAY,
    1,
    'the earliest day of the month a payment schedule may take',
    ['invalid_payment_day_for_payment_schedule'],
  ),
  payment_day_max: platform(
    PAYMENT_DAY,
    31,
    'the latest day of the month a payment schedule may take',
    ['invalid_payment_day_for_payment_schedule'],
  ),
  internal_email_addresses: platform(
    listOf(emailItem, 'e-mail addresses', { lowerCase: true }),
    [],
    "the platform's own addresses, which no customer may give as theirs",
    ['internal_email_address'],
  ),
  billing_document_identifiers_enabled: platform(
    onOff,
    true,
    'historical statement transactions may carry billing document identifiers',
    ['historical_statement_billing_document_identifier_not_allowed_when_feature_flag_disabled'],
  ),
  incomplete_payments_enabled: platform(onOff, false, 'accounts may carry incomplete payments', [
    'incomplete_payments_not_enabled',
  ]),
  required_customer_detail_namespaces: platform(
    listOf(namespaceItem, 'namespaces'),
    [],
    'the customer detail namespaces every customer must give',
    ['required_customer_details_namespace_missing'],
  ),
  document_path_check_enabled: platform(
    onOff,
    false,
    'document and statement paths must name a file in the migration file store',
    ['path_does_not_exist_in_file_store'],
  ),
  exclusive_user_roles: platform(
    listOf(roleItem, 'role names'),
    [],
    'the roles a customer may only hold alone, with no other role',
    ['customer_has_exclusive_role_conflict'],
  ),
  fixed_payment_schedule_min_amount: platform(
    amountAtLeastZero,
    '0',
    'the lowest amount a fixed payment schedule may take, in major currency units',
    ['fixed_payment_schedule_amount_out_of_range'],
  ),
};

export type PlatformSettingKey = keyof typeof PLATFORM_SETTINGS;

/** The value of every platform setting, typed by its declaration. */
export type PlatformSettings = {
  readonly [K in PlatformSettingKey]: (typeof PLATFORM_SETTINGS)[K]['default'];
};

/** Every platform setting's key, in declaration order. */
export const PLATFORM_SETTING_KEYS = Object.keys(PLATFORM_SETTINGS) as PlatformSettingKey[];

export function isPlatformSettingKey(name: string): name is PlatformSettingKey {
  return Object.hasOwn(PLATFORM_SETTINGS, name);
}

/** The declaration of the key, for code that walks every key. */
export function platformSetting(key: PlatformSettingKey): PlatformSettingDeclaration<unknown> {
  return PLATFORM_SETTINGS[key] as PlatformSettingDeclaration<unknown>;
}

export const DEFAULT_PLATFORM_SETTINGS: PlatformSettings = Object.freeze(
  Object.fromEntries(PLATFORM_SETTING_KEYS.map((key) => [key, platformSetting(key).default])),
) as PlatformSettings;

/** What is wrong with the settings taken together, if anything: a value may depend on another. */
export function platformSettingsProblem(settings: PlatformSettings): string | undefined {
  const { payment_day_min: min, payment_day_max: max } = settings;
  if (min > max) {
    return `payment_day_min (${min}) would be after payment_day_max (${max}); the earliest payment day may not come after the latest`;
  }
  return undefined;
}

/** A rule setting of an import supplier, set with `account-import supplier add | set`. */
export interface SupplierSettingDeclaration<T> {
  readonly type: Type<T>;
  readonly default: T;
  readonly summary: string;
  readonly rules: readonly string[];
  /**
   * The value its option takes (`--auto-allocation-team <team>`), whose `--no-` option sets
   * null; none for an on/off setting (`--send-registration-flows`, `--no-send-registration-flows`).
   */
  readonly argument?: string;
}

function supplier<T>(
  type: Type<T>,
  fallback: T,
  summary: string,
  rules: readonly string[],
  argument?: string,
): SupplierSettingDeclaration<T> {
  return { type, default: fallback, summary, rules, argument };
}

export const SUPPLIER_SETTINGS = {
  auto_allocation_team: supplier(
    teamOrNone,
    null,
    "the operations team the supplier's accounts go to; none: each process request names one",
    ['operations_team_should_be_provided', 'operations_team_provided_when_using_auto_allocation'],
    '<team>',
  ),
  send_registration_flows: supplier(
    bool,
    false,
    'meter points are registered with the industry: they start PRE_REGISTRATION, for send-registration-flows (off: ON_SUPPLY)',
    ['agents_supplied_for_non_on_market_switch', 'customer_given_name_required'],
  ),
  enforce_business_contracts: supplier(
    bool,
    false,
    'business accounts must give their business details',
    ['business_field_required'],
  ),
  link_account_to_business_with_contract: supplier(
    bool,
    false,
    'a business with contracts is found by its contract identifiers and linked, so the account gives no business information (off: the account gives it)',
    [
      'business_information_required_if_not_linking_via_contract',
      'business_information_not_required_if_linking_via_contract',
    ],
  ),
  create_new_portfolios: supplier(
    bool,
    false,
    'each account gets a new portfolio, so none may name one by reference',
    ['portfolio_references_provided'],
  ),
  skip_property_creation: supplier(
    bool,
    false,
    'no property is created for an account, so none may give supply addresses',
    ['supply_addresses_provided_while_skip_property_creation_enabled'],
  ),
  skip_supply_point_creation: supplier(
    bool,
    false,
    'no supply point is created for an account, so none may give supply points (off: an account giving supply addresses gives meter points)',
    [
      'supply_points_provided_while_skip_supply_point_creation_enabled',
      'supply_points_not_provided_while_skip_supply_point_creation_disabled',
    ],
  ),
};

export type SupplierSettingKey = keyof typeof SUPPLIER_SETTINGS;

/** The rule settings of one import supplier, typed by their declarations. */
export type SupplierSettings = {
  readonly [K in SupplierSettingKey]: (typeof SUPPLIER_SETTINGS)[K]['default'];
};

/** Every supplier setting's key, in declaration order. */
export const SUPPLIER_SETTING_KEYS = Object.keys(SUPPLIER_SETTINGS) as SupplierSettingKey[];

/** The declaration of the key, for code that walks every key. */
export const supplierSetting = (key: SupplierSettingKey) =>
  SUPPLIER_SETTINGS[key] as SupplierSettingDeclaration<unknown>;

/** The option of `supplier add | set` that sets the key: `--send-registration-flows`. */
export const supplierSettingOption = (key: SupplierSettingKey) => `--${key.replaceAll('_', '-')}`;

export const DEFAULT_SUPPLIER_SETTINGS: SupplierSettings = Object.freeze(
  Object.fromEntries(SUPPLIER_SETTING_KEYS.map((key) => [key, supplierSetting(key).default])),
) as SupplierSettings;

/** JSON.parse of text that may not be JSON at all: undefined then. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The settings a stored text holds: a key it lacks, or holds a value of the wrong type for,
 * has its default; a key this version does not declare is ignored.
 */
export function readSupplierSettings(text: string): SupplierSettings {
  const stored = parsed(text);
  if (!isObject(stored)) return DEFAULT_SUPPLIER_SETTINGS;
  const settings: Record<string, unknown> = {};
  for (const key of SUPPLIER_SETTING_KEYS) {
    const { type, default: fallback } = supplierSetting(key);
    const checked = Object.hasOwn(stored, key) ? checkValue(type, stored[key]) : undefined;
    settings[key] = checked !== undefined && 'value' in checked ? checked.value : fallback;
  }
  return Object.freeze(settings) as SupplierSettings;
}

/** The text stored for the settings: every declared key, in declaration order, so equal settings give equal texts. */
export function supplierSettingsText(settings: SupplierSettings): string {
  return JSON.stringify(
    Object.fromEntries(SUPPLIER_SETTING_KEYS.map((key) => [key, settings[key]])),
  );
}
