/** Rules of the account payload that span several top-level fields or lists. */
import type { JsonSchema, Run } from './validators.js';
import { fail } from './validators.js';
import { LEGACY_BILLING_FIELDS, type AccountPayload } from './parts/account-shape.js';

type Draft = Partial<AccountPayload>;
type Input = Readonly<Record<string, unknown>>;

const blankString = (raw: unknown) => typeof raw === 'string' && raw.trim() === '';

/** Whether a legacy billing line holds something: an empty one, like any, counts as absent. */
const holdsData = (raw: unknown) => raw !== undefined && raw !== null && !blankString(raw);

/**
 * Which billing address form the payload uses. The legacy form is chosen by its keys alone,
 * but beside a structured address only lines holding data conflict with it: extracts often
 * carry every legacy column, empty.
 */
function checkBillingAddressForm(run: Run, input: Input): void {
  const structured = input.billing_address !== undefined;
  const legacy = LEGACY_BILLING_FIELDS.some((name) => input[name] !== undefined);
  if (structured && LEGACY_BILLING_FIELDS.some((name) => holdsData(input[name]))) {
    fail(
      run,
      'billing_address',
      'billing_address_new_style_and_legacy',
      'Send either billing_address or the legacy billing_address1..5 and billing_postcode, not both.',
    );
  } else if (!structured && !legacy) {
    fail(run, 'billing_address', 'billing_address_not_provided', 'A billing address is required.');
  } else if (legacy && !structured) {
    // Optional fields in general, but the legacy form needs these two.
    for (const name of ['billing_address1', 'billing_postcode']) {
      const raw = input[name];
      if (raw === undefined)
        fail(run, name, 'required', 'Required in the legacy billing address form.');
      else if (blankString(raw)) fail(run, name, 'blank', 'This field may not be blank.');
    }
  }
}

function checkCustomers(out: Draft, run: Run, input: Input): void {
  const raw = input.customers;
  if (out.unknown_occupier === true && Array.isArray(raw) && raw.length > 0) {
    fail(
      run,
      'customers',
      'customer_with_unknown_occupier',
      'An account with an unknown occupier may not have customers.',
    );
  } else if (
    out.unknown_occupier === false &&
    (raw === undefined || (Array.isArray(raw) && raw.length === 0))
  ) {
    fail(run, 'customers', 'customers_required', 'At least one customer is required.');
  }
}

function markPrimaryCustomer(out: Draft, run: Run): void {
  const customers = out.customers;
  if (customers === undefined) return;
  let primary = -1;
  for (let i = 0; i < customers.length; i++) {
    if (customers[i]?.is_primary !== true) continue;
    if (primary < 0) primary = i;
    else {
      fail(
        run,
        `customers.${i}.is_primary`,
        'multiple_primary_customers',
        `Customer ${primary} is already the primary customer.`,
      );
    }
  }
  const first = customers[0];
  if (primary < 0 && first !== undefined) first.is_primary = true;
}

function checkDuplicateMeterPoints(out: Draft, run: Run): void {
  const addresses = out.supply_addresses;
  if (addresses === undefined) return;
  const seen = new Set<string>();
  for (let i = 0; i < addresses.length; i++) {
    const points = addresses[i]?.meter_points;
    if (points === undefined) continue;
    for (let j = 0; j < points.length; j++) {
      const identifier = points[j]?.identifier;
      if (identifier === undefined) continue;
      if (!seen.has(identifier)) seen.add(identifier);
      else {
        fail(
          run,
          `supply_addresses.${i}.meter_points.${j}.identifier`,
          'duplicate_meter_points_provided',
          'This meter point was already given earlier in the account.',
        );
      }
    }
  }
}

/** Cross-field rules of the whole account, run after every field has been checked. */
export function checkAccount(out: Draft, _prefix: string, run: Run, input: Input): void {
  checkBillingAddressForm(run, input);
  checkCustomers(out, run, input);
  markPrimaryCustomer(out, run);
  checkDuplicateMeterPoints(out, run);
}

const anyLegacy = { anyOf: LEGACY_BILLING_FIELDS.map((name) => ({ required: [name] })) };

/** The billing address forms as JSON Schema: exactly one of structured or legacy. */
export const billingAddressSchema: JsonSchema = {
  oneOf: [
    { required: ['billing_address'], not: anyLegacy },
    { required: ['billing_address1', 'billing_postcode'], not: { required: ['billing_address'] } },
  ],
};
