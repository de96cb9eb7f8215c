/**
 * Realistic, fully valid published accounts (EnergyAccount) for tests, with overrides at every
 * level: `buildAccount({ customers: [buildCustomer({ email: 'x@y.co.uk' })] })`.
 *
 * Phone numbers: Ofcom's drama mobile range (07700 900xxx) is not valid for libphonenumber,
 * so mobiles use the library's own example range (07400 123456).
 */

type Json = Record<string, unknown>;

const MPAN_WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43];

/** A valid MPAN core: `first12` (a distributor id, 10 or more, first) plus its check digit. */
export function mpanWithCheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (MPAN_WEIGHTS[i] ?? 0);
  return `${first12}${(sum % 11) % 10}`;
}

export const VALID_MPAN = '1200023305967';
export const VALID_MPRN = '3240865509';
export const MOBILE = '07400 123456';
export const MOBILE_E164 = '+447400123456';
export const LANDLINE = '020 7946 0018';
export const LANDLINE_E164 = '+442079460018';

/** A customer with e-mail, mobile, landline, date of birth and a consent. */
export function buildCustomer(overrides: Json = {}): Json {
  return {
    given_name: 'Ada',
    family_name: 'Lovelace',
    title: 'Ms',
    email: 'ada@lovelace.co.uk',
    mobile: MOBILE,
    landline: LANDLINE,
    date_of_birth: '1985-12-10',
    consents: [{ type: 'MARKETING_EMAIL', value: 'ACCEPTED', signed_at: '2023-03-01T10:00:00Z' }],
    ...overrides,
  };
}

/** The factory account with one customer, built from `fields`. */
export function accountWithCustomer(fields: Json = {}): Json {
  return buildAccount({ customers: [buildCustomer(fields)] });
}

/**
 * An electricity meter point (MPAN 1200023305967) with an agreement, a meter, its transfer
 * reading on its last billed to date (2024-03-28) and the EAC of its register.
 */
export function buildMeterPoint(overrides: Json = {}): Json {
  return {
    supply_type: 'ELECTRICITY',
    identifier: VALID_MPAN,
    supply_start_date: '2021-04-01',
    last_billed_to_date: '2024-03-28',
    mpid: 'LOND',
    agreements: [{ tariff_code: 'E-1R-VAR-22-11-01-C', effective_from: '2022-11-01' }],
    meters: [
      {
        meter_serial_number: 'S12A345678',
        installed_on: '2019-06-01',
        registers: [{ register_id: '1', tpr: '00001', number_of_digits: 5 }],
        transfer_readings: [
          {
            register_id: '1',
            reading_date: '2024-03-28',
            reading_value: '12345.6',
            reading_type: 'CUSTOMER',
          },
        ],
      },
    ],
    eac_history: [{ effective_from: '2024-01-01', tpr: '00001', consumption: '2900' }],
    ...overrides,
  };
}

/**
 * A gas meter point (MPRN 3240865509, supplier BGT, shipper TCL) with an agreement, a current
 * AQ and one meter, its transfer reading on its last billed to date (2024-03-28).
 */
export function buildGasMeterPoint(overrides: Json = {}): Json {
  return {
    supply_type: 'GAS',
    identifier: VALID_MPRN,
    supply_start_date: '2021-04-01',
    last_billed_to_date: '2024-03-28',
    mpid: 'BGT',
    shipper_mpid: 'TCL',
    agreements: [{ tariff_code: 'G-1R-VAR-22-11-01-C', effective_from: '2022-11-01' }],
    aq_history: [{ effective_from: '2024-01-01', consumption: '11000' }],
    meters: [
      {
        meter_serial_number: 'G4A00123',
        installed_on: '2018-02-14',
        gas_number_of_digits: 5,
        transfer_readings: [
          { reading_date: '2024-03-28', reading_value: '4321', reading_type: 'CUSTOMER' },
        ],
      },
    ],
    ...overrides,
  };
}

/** The meter point with its (first) meter's serial number changed: one meter, one serial. */
function withMeterSerial(point: Json, serial: string): Json {
  const [meter, ...others] = point.meters as Json[];
  return { ...point, meters: [{ ...meter, meter_serial_number: serial }, ...others] };
}

/** A supply address with one electricity and one gas meter point. */
export function buildSupplyAddress(overrides: Json = {}): Json {
  return {
    supply_address1: '10 Downing Street',
    supply_address2: 'Westminster',
    supply_address3: 'London',
    supply_postcode: 'SW1A 2AA',
    customer_at_supply_address_from_date: '2020-01-01',
    meter_points: [buildMeterPoint(), buildGasMeterPoint()],
    ...overrides,
  };
}

/** A statement S-<n> for month `n` of 2024 with its PDF. */
export function buildStatement(n: number, overrides: Json = {}): Json {
  const month = String(n).padStart(2, '0');
  return {
    statement_id: `S-${n}`,
    bill_period_from_date: `2024-${month}-01`,
    bill_period_to_date: `2024-${month}-28`,
    issued_date: `2024-${month}-28`,
    gross_amount: 8450 + n,
    statement_path: `/statements/2024/S-${n}.pdf`,
    ...overrides,
  };
}

/**
 * A typical account: supplier DEMO, structured billing address, 2 customers, 2 supply
 * addresses with 2 meter points each, 3 statements, 2 notes, references and metadata.
 */
export function buildAccount(overrides: Json = {}): Json {
  // Each account its own reference, a reference belonging to one account of its supplier:
  // from an external account number of plain characters that fits in a reference's value.
  const { external_account_number: given } = overrides;
  const external = typeof given === 'string' && /^[!-~]{1,96}$/.test(given) ? given : 'A-1000001';
  return {
    import_supplier: 'DEMO',
    external_account_number: 'A-1000001',
    account_type: 'DOMESTIC',
    communication_preference: 'ONLINE',
    language_preference: 'en-gb',
    billing_name: 'Ada Lovelace',
    billing_email: 'billing@lovelace.co.uk',
    billing_address: {
      country: 'GB',
      street_address: 'Flat 2\n12 Acacia Avenue',
      locality: 'London',
      postal_code: 'EC1A 1BB',
    },
    transfer_balance: '-12.34',
    last_billed_to_date: '2024-03-28',
    customers: [
      buildCustomer(),
      buildCustomer({
        given_name: 'Charles',
        family_name: 'Babbage',
        title: 'Mr',
        email: 'charles@babbage.co.uk',
        mobile: '07400 123457',
        landline: null,
        date_of_birth: '1981-12-26',
      }),
    ],
    supply_addresses: [
      buildSupplyAddress(),
      buildSupplyAddress({
        supply_address1: '221B Baker Street',
        supply_address2: 'Marylebone',
        supply_postcode: 'NW1 6XE',
        customer_at_supply_address_from_date: '2022-05-01',
        meter_points: [
          withMeterSerial(
            buildMeterPoint({ identifier: mpanWithCheckDigit('200012345678') }),
            'S12A345679',
          ),
          withMeterSerial(buildGasMeterPoint({ identifier: '7654321' }), 'G4A00124'),
        ],
      }),
    ],
    payment_instructions: [{ type: 'DIRECT_DEBIT', vendor: 'STRIPE', reference: 'MD-0001' }],
    statements: [buildStatement(1), buildStatement(2), buildStatement(3)],
    notes: [
      {
        body: 'Customer prefers calls after 5pm.',
        created_at: '2024-02-01T17:30:00Z',
        is_pinned: true,
      },
      { document_paths: [{ document_path: '/notes/2024/letter-1.pdf' }] },
    ],
    references: [{ namespace: 'legacy-crm', value: `CRM-${external}` }],
    metadata: [{ key: 'source', value: { system: 'legacy', batch: 7 } }],
    ...overrides,
  };
}

/**
 * A payment adequacy change that adds up: a £120 shortfall spread over a year, £10 a month on
 * top of the £100 monthly charge.
 */
export function buildAdequacyChange(overrides: Json = {}): Json {
  return {
    created_at: '2025-01-01T09:00:00Z',
    applied_at: '2025-01-02T09:00:00Z',
    average_monthly_charge: 10000,
    average_monthly_elec_charge: 6000,
    average_monthly_gas_charge: 4000,
    current_balance: -12000,
    target_balance: 0,
    balance_adjustment: 1000,
    existing_direct_debit_payment: 9000,
    new_direct_debit: 11000,
    ...overrides,
  };
}

/** A line item of a supply charge: 100 units at 0.1 on the standard band, after 2024-03-28. */
export function buildLineItem(overrides: Json = {}): Json {
  return {
    start_date: '2024-03-29',
    end_date: '2024-04-28',
    net_amount: '10.00',
    number_of_units: '100',
    price_per_unit: '0.1',
    rate_band: 'STANDARD',
    ...overrides,
  };
}

/**
 * A supply charge of 12.00 on the factory's electricity meter point (product VAR-22-11-01): one
 * line item of 10.00 and 2.00 of VAT.
 */
export function buildSupplyCharge(overrides: Json = {}, item: Json = buildLineItem()): Json {
  return {
    type: 'SUPPLY_CHARGE',
    transaction_id: 'SC-1',
    transaction_date: '2024-04-29',
    amount: '12.00',
    product_code: 'VAR-22-11-01',
    supply_point_identifier: VALID_MPAN,
    line_items: [item],
    tax_items: [
      {
        amount: '2.00',
        rate: '0.2',
        tax_type: 'VAT',
        unit_type: 'PROPORTION',
        value_taxed: '10.00',
      },
    ],
    ...overrides,
  };
}
