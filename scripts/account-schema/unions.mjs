/**
 * How each published `oneOf` is told apart: by a discriminator field's value, or by keys that
 * only one variant has. The generator checks that the variants match the publication.
 */
export const UNIONS = {
  MeterPoint: {
    field: 'supply_type',
    code: 'supply_type_not_recognised',
    variants: { ELECTRICITY: 'ElectricityMeterPoint', GAS: 'GasMeterPoint' },
  },
  EnergyTransaction: {
    field: 'type',
    variants: {
      CHARGE: 'EnergyCharge',
      PAYMENT: 'EnergyPayment',
      REPAYMENT: 'EnergyRepayment',
      CREDIT: 'EnergyCredit',
      SUPPLY_CHARGE: 'EnergySupplyCharge',
    },
  },
  PaymentPreference: {
    field: 'type',
    variants: {
      ACTIVE_EXISTING: 'PaymentPreferencesWithExistingInstructionReferences',
      ACTIVE_NEW: 'PaymentPreferencesWithNewInstructionReferences',
      PASSIVE: 'BasePaymentPreference',
    },
  },
  ProductCharacteristic: {
    field: 'code',
    variants: {
      sales_channel: 'SalesChannelCharacteristic',
      'gbr-electricity.payment-method': 'Gbr-electricity.payment-methodCharacteristic',
      'gbr-electricity.meter-rate-profile': 'Gbr-electricity.meter-rate-profileCharacteristic',
      'gbr-gas.meter-point-grid-supply-point-equivalent':
        'Gbr-gas.meter-point-grid-supply-point-equivalentCharacteristic',
      'gbr-gas.payment-method': 'Gbr-gas.payment-methodCharacteristic',
    },
  },
  Business: {
    keys: ['business_contract_identifier', 'business_contract_identifiers'],
    variant: 'BusinessWithExistingContracts',
    otherwise: 'BaseBusiness',
  },
};
