/**
 * The supply side's lookups in the platform's reference data: tariffs, products, rate bands,
 * characteristics, supply charges, market participants, TPRs, agent contracts and PSR needs.
 * Most payloads are checked against the demo catalogue; a few against it plus entries of
 * their own.
 */
import { describe, expect, it } from 'vitest';
import type { AccountContext } from '../../../src/account/account.js';
import { platformData, platformView } from '../../../src/platform/platform-data.js';
import { catalogueOf, type ReferenceRow } from '../../../src/reference/reference.catalogue.js';
import { DEMO_REFERENCE } from '../../../src/reference/reference.demo.js';
import {
  buildAccount,
  buildCustomer,
  buildGasMeterPoint,
  buildMeterPoint,
  buildSupplyAddress,
  buildSupplyCharge,
} from '../factory.js';
import { errorsOf, fullAccount, meterOf, meterPointOf, type Json } from '../full-account.js';
import { expectProblem, expectProblems, valueOf } from '../helpers.js';
import { HAS_REFERENCE } from '../reference.js';
import { testPlatform } from '../../helpers/platform.js';

const ELEC = 'supply_addresses.0.meter_points.0';
const GAS = 'supply_addresses.0.meter_points.1';

/** The factory account with one supply address, its two meter points built from the fields given. */
const withPoints = (elec: Json = {}, gas: Json = {}, account: Json = {}): Json =>
  buildAccount({
    supply_addresses: [
      buildSupplyAddress({ meter_points: [buildMeterPoint(elec), buildGasMeterPoint(gas)] }),
    ],
    ...account,
  });

/** The demo catalogue with `rows` added (or replacing an entry of the same kind and code). */
function withEntries(...rows: ReferenceRow[]): Partial<AccountContext> {
  const key = (row: ReferenceRow) => `${row.kind} ${row.code}`;
  const replaced = new Set(rows.map(key));
  const all = [...DEMO_REFERENCE.filter((row) => !replaced.has(key(row))), ...rows];
  return { platform: platformView(platformData(catalogueOf(1, all), 0), '{}') };
}

const row = (kind: string, code: string, attributes: Json): ReferenceRow =>
  ({ kind, code, attributes }) as ReferenceRow;

describe('agreements and their tariffs', () => {
  it('name a tariff of the meter point fuel', () => {
    valueOf(withPoints());
    const agreements = [{ tariff_code: 'G-1R-VAR', effective_from: '2022-11-01' }];
    expectProblem(
      withPoints({ agreements }),
      'tariff_code_not_found',
      `${ELEC}.agreements.0.tariff_code`,
    );
    expectProblem(
      withPoints({}, { agreements: [{ tariff_code: 'NO-SUCH', effective_from: '2022-11-01' }] }),
      'tariff_code_not_found',
      `${GAS}.agreements.0.tariff_code`,
    );
  });

  it('override only rate bands of the tariff', () => {
    const agreement = (rate_band: string) => ({
      tariff_code: 'E-1R-VAR-22-11-01-C',
      effective_from: '2022-11-01',
      rate_overrides: [{ rate_band, unit_price: '0.25' }],
    });
    valueOf(withPoints({ agreements: [agreement('STANDARD')] }));
    expectProblem(
      withPoints({ agreements: [agreement('NIGHT')] }),
      'rate_band_does_not_exist',
      `${ELEC}.agreements.0.rate_overrides.0.rate_band`,
    );
  });

  it('override rates only while the product is on sale', () => {
    const context = withEntries(
      row('tariff', 'E-ENDS', {
        supply_type: 'ELECTRICITY',
        rate_bands: ['STANDARD'],
        product: 'ENDS',
      }),
      row('product', 'ENDS', { available_to: '2024-01-01T00:00:00Z' }),
    );
    const agreements = (to: string, next: string) => [
      {
        tariff_code: 'E-ENDS',
        effective_from: '2022-11-01',
        effective_to: to,
        rate_overrides: [{ rate_band: 'STANDARD', unit_price: '0.25' }],
      },
      { tariff_code: 'E-1R-VAR', effective_from: next },
    ];
    // The product is on sale until the end of 2023.
    valueOf(withPoints({ agreements: agreements('2023-12-31', '2024-01-01') }), context);
    expectProblem(
      withPoints({ agreements: agreements('2024-01-01', '2024-01-02') }),
      'invalid_period',
      `${ELEC}.agreements.0.rate_overrides`,
      context,
    );
  });

  it('end when their product ends', () => {
    const context = withEntries(
      row('tariff', 'E-ENDS', {
        supply_type: 'ELECTRICITY',
        rate_bands: ['STANDARD'],
        product: 'ENDS',
      }),
      row('product', 'ENDS', { available_to: '2030-01-01T00:00:00Z' }),
    );
    const agreement = { tariff_code: 'E-ENDS', effective_from: '2022-11-01' };
    valueOf(withPoints({ agreements: [{ ...agreement, effective_to: '2029-12-31' }] }), context);
    expectProblem(
      withPoints({ agreements: [agreement] }),
      'open_ended_agreement_for_end_dated_product',
      `${ELEC}.agreements.0.effective_to`,
      context,
    );
  });

  it('suit the number of settlement registers of the meter point', () => {
    const agreements = [{ tariff_code: 'E-2R-VAR', effective_from: '2022-11-01' }];
    expectProblem(
      withPoints({ agreements }),
      'tariff_type_does_not_match_meter_point_type',
      `${ELEC}.agreements.0.tariff_code`,
    );
    // An ended agreement is not compared with today's meters.
    valueOf(
      withPoints({
        agreements: [
          { ...agreements[0], effective_to: '2023-10-31' },
          { tariff_code: 'E-1R-VAR', effective_from: '2023-11-01' },
        ],
      }),
    );
  });

  it('suit prepayment meters with prepayment tariffs, and credit meters with others', () => {
    const agreements = [{ tariff_code: 'E-1R-PAYG', effective_from: '2022-11-01' }];
    expectProblem(
      withPoints({ agreements }),
      'tariff_type_does_not_match_meter_type',
      `${ELEC}.meters.0.is_prepay`,
    );
    // The published gas meter is a prepayment one.
    const account = fullAccount();
    (meterPointOf(account, 1).agreements as Json[])[0] = {
      tariff_code: 'G-1R-PAYG',
      effective_from: '2019-08-01',
    };
    expect(errorsOf(account)).toEqual([]);
  });

  it('start once a variable product is on sale', () => {
    const context = (from: string) =>
      withEntries(
        row('tariff', 'E-TRACK', {
          supply_type: 'ELECTRICITY',
          rate_bands: ['STANDARD'],
          product: 'TRACK',
        }),
        row('product', 'TRACK', { variable: true, available_from: from }),
      );
    const agreements = [{ tariff_code: 'E-TRACK', effective_from: '2022-11-01' }];
    valueOf(withPoints({ agreements }), context('2022-11-01T00:00:00Z'));
    // Billed to 2024-03-28: the days before 2023 were billed before.
    expectProblem(
      withPoints({ agreements }),
      'agreement_cannot_start_before_product_available',
      `${ELEC}.agreements.0.effective_from`,
      context('2023-01-01T00:00:00Z'),
    );
    // The platform bills from 2024-03-29, before the product is on sale.
    expectProblem(
      withPoints({ agreements }),
      'agreement_effective_from_before_product_available_from',
      `${ELEC}.agreements.0.effective_from`,
      context('2024-06-01T00:00:00Z'),
    );
  });
});

describe('product characteristics', () => {
  const agreements = (value: string) => [
    {
      tariff_code: 'E-1R-VAR-22-11-01-C',
      effective_from: '2022-11-01',
      characteristics: [{ code: 'sales_channel', value }],
    },
  ];
  const at = `${ELEC}.agreements.0.characteristics.0`;

  it('name a characteristic of the platform, with one of its values', () => {
    valueOf(withPoints({ agreements: agreements('BROKER') }));
    const context = withEntries(row('characteristic', 'sales_channel', { values: ['DIRECT'] }));
    expectProblem(
      withPoints({ agreements: agreements('BROKER') }),
      'invalid_characteristic_value',
      `${at}.value`,
      context,
    );
    const without = {
      platform: platformView(
        platformData(
          catalogueOf(
            1,
            DEMO_REFERENCE.filter((r) => r.kind !== 'characteristic'),
          ),
          0,
        ),
        '{}',
      ),
    };
    expectProblem(
      withPoints({ agreements: agreements('DIRECT') }),
      'characteristic_code_not_found',
      `${at}.code`,
      without,
    );
  });
});

describe('supply charges', () => {
  const charge = (extra: Json = {}): Json =>
    withPoints(
      {},
      {},
      { transfer_balance: '-12.00', current_statement_transactions: [buildSupplyCharge(extra)] },
    );
  const at = 'current_statement_transactions.0';

  it('name a product of the platform', () => {
    valueOf(charge());
    expectProblem(
      charge({ product_code: 'NO-SUCH' }),
      'product_code_does_not_exist',
      `${at}.product_code`,
    );
  });

  it('are covered by one agreement for their product', () => {
    const context = withEntries(row('product', 'OTHER', {}));
    expectProblem(
      charge({ product_code: 'OTHER' }),
      'supply_charge_line_items_not_covered_by_single_agreement',
      `${at}.line_items`,
      context,
    );
  });
});

describe('market participants', () => {
  it('are found in the meter point market, in the role the field names', () => {
    // Agents are appointed only by a supplier that sends registration flows.
    const flows = { platform: testPlatform('{"send_registration_flows":true}') };
    valueOf(
      withPoints({ dc_to_appoint: 'EDCA', mop_to_appoint: 'EMOP' }, { mam_to_appoint: 'GMM' }),
      flows,
    );
    expectProblems(
      withPoints(
        { mpid: 'ABCD', dc_to_appoint: 'EMOP' },
        { mpid: 'TCL', shipper_mpid: 'BGT', mam_to_appoint: 'TCL' },
      ),
      [
        { code: 'market_participant_not_found', attr: `${ELEC}.mpid` },
        { code: 'market_participant_not_found', attr: `${ELEC}.dc_to_appoint` },
        { code: 'market_participant_not_found', attr: `${GAS}.mpid` },
        { code: 'market_participant_not_found', attr: `${GAS}.shipper_mpid` },
        { code: 'market_participant_not_found', attr: `${GAS}.mam_to_appoint` },
      ],
      flows,
    );
    // A shape no participant has is reported once.
    expectProblem(withPoints({ mpid: 'lond' }), 'market_participant_not_found', `${ELEC}.mpid`);
  });

  it('are found as the agents the contracts name', () => {
    const agents = {
      dc_contract: { agent_mpid: 'EDCA', contract_reference: 'DC-24-01' },
      da_contract: { agent_mpid: 'EDCA' },
      mop_contract: { agent_mpid: 'EDCA' },
    };
    expectProblem(
      withPoints({ agents }),
      'market_participant_not_found',
      `${ELEC}.agents.mop_contract.agent_mpid`,
    );
  });
});

describe('agent contracts', () => {
  const contract = (fields: Json) =>
    withPoints({ agents: { dc_contract: { agent_mpid: 'EDCA', ...fields } } });
  const at = `${ELEC}.agents.dc_contract`;

  it('are contracts of the platform, with its agent and service references', () => {
    valueOf(
      contract({
        contract_reference: 'DC-24-01',
        service_reference: 'DC1',
        service_level_reference: 'S1',
      }),
    );
    expectProblem(
      contract({ contract_reference: 'DC-1999' }),
      'agent_contract_reference_does_not_exist',
      `${at}.contract_reference`,
    );
    // The meter operator's contract, named for the data collector.
    expectProblem(
      contract({ contract_reference: 'MOP-24-01' }),
      'agent_contract_reference_does_not_exist',
      `${at}.contract_reference`,
    );
    expectProblem(
      contract({ contract_reference: 'DC-24-01', service_reference: 'DC2' }),
      'agent_contract_reference_does_not_exist',
      `${at}.service_reference`,
    );
  });

  it('named by their service references alone, match one contract in force', () => {
    valueOf(contract({ service_reference: 'DC1' }));
    valueOf(contract({ service_reference: 'DC1', service_level_reference: 'S1' }));
    expectProblem(
      contract({ service_level_reference: 'S9' }),
      'agent_contract_reference_does_not_exist',
      `${at}.service_level_reference`,
    );
    // A second contract of the same services: naming them alone no longer tells which.
    const second = row('agent_contract_reference', 'DC-25-01', {
      agent_mpid: 'EDCA',
      service_reference: 'DC1',
      service_level_reference: 'S2',
    });
    const both = withEntries(second);
    expectProblem(
      contract({ service_reference: 'DC1' }),
      'multiple_active_agent_contract_references',
      at,
      both,
    );
    // Its service level, or its reference, tells them apart again.
    valueOf(contract({ service_reference: 'DC1', service_level_reference: 'S2' }), both);
    valueOf(contract({ contract_reference: 'DC-25-01', service_reference: 'DC1' }), both);
    // A contract of another agent is not one of this agent's.
    const other = withEntries({
      ...second,
      attributes: { ...second.attributes, agent_mpid: 'EDCB' },
    });
    valueOf(contract({ service_reference: 'DC1' }), other);
  });
});

describe.skipIf(!HAS_REFERENCE)('time pattern regimes', () => {
  it('are regimes of the platform, on registers and EAC entries', () => {
    const account = fullAccount();
    // Register X is not a settlement register: it needs no EAC of its own.
    const registers = meterOf(account, 0).registers as Json[];
    (registers[1] as Json).tpr = '00044';
    ((meterPointOf(account, 0).eac_history as Json[])[1] as Json).tpr = '00045';
    expect(errorsOf(account)).toEqual([
      { attr: `${ELEC}.eac_history.1.tpr`, code: 'tpr_not_found' },
      { attr: `${ELEC}.meters.0.registers.1.tpr`, code: 'tpr_not_found' },
    ]);
  });
});

describe('priority services register needs', () => {
  const withNeed = (need: Json) =>
    withPoints(
      {},
      {},
      {
        customers: [buildCustomer({ psr: [{ effective_from: '2024-01-01T00:00:00Z', ...need }] })],
      },
    );
  const at = 'customers.0.psr.0';

  it('name codes of the platform for their fuel', () => {
    valueOf(withNeed({ elec_industry_code: '08', gas_industry_code: '08' }));
    expectProblems(withNeed({ elec_industry_code: '04', gas_industry_code: '05' }), [
      { code: 'electricity_psr_record_not_found', attr: `${at}.elec_industry_code` },
      { code: 'gas_psr_record_not_found', attr: `${at}.gas_industry_code` },
    ]);
    const context = withEntries(
      row('psr_code', '40', { supply_type: 'GAS', description: 'Gas only' }),
    );
    valueOf(withNeed({ gas_industry_code: '40' }), context);
    expectProblem(
      withNeed({ elec_industry_code: '40' }),
      'electricity_psr_record_not_found',
      `${at}.elec_industry_code`,
      context,
    );
  });

  it('describe the need as the platform does', () => {
    valueOf(withNeed({ elec_industry_code: '08', description: ' blind ' }));
    expectProblem(
      withNeed({ elec_industry_code: '08', description: 'Partially sighted' }),
      'psr_record_description_not_found',
      `${at}.description`,
    );
  });

  it('end when the need is temporary', () => {
    valueOf(withNeed({ elec_industry_code: '32', effective_to: '2025-01-01T00:00:00Z' }));
    expectProblem(
      withNeed({ elec_industry_code: '32' }),
      'temporary_psr_does_not_have_end_date',
      `${at}.effective_to`,
    );
  });
});
