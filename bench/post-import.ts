/**
 * The post-import scenarios: each request adds one new item (a historical statement, a note,
 * a payment instruction starting in the future, so that none is refused as active) to one of
 * the accounts created before, cycling over them.
 */

/** A post-import endpoint under load: its scenario name, path and body. */
export interface PostImportScenario {
  name: string;
  path: string;
  /** The body adding item `item` (unique in the run) to the account `external` of `supplier`. */
  body(supplier: string, external: string, item: string): string;
}

const name = (supplier: string, external: string) => ({
  import_supplier: supplier,
  external_account_number: external,
});

export const POST_IMPORT_SCENARIOS: readonly PostImportScenario[] = [
  {
    name: 'add-statements',
    path: '/v1/data-import/historical-statements/create/',
    body: (supplier, external, item) =>
      JSON.stringify({
        ...name(supplier, external),
        statements: [
          {
            statement_id: `H-${item}`,
            bill_period_from_date: '2019-01-01',
            bill_period_to_date: '2019-01-31',
            issued_date: '2019-02-01',
            number: item,
            gross_amount: 10_050,
            statement_path: `statements/2019/H-${item}.pdf`,
          },
        ],
      }),
  },
  {
    name: 'add-notes',
    path: '/v1/data-import/notes/create/',
    body: (supplier, external, item) =>
      JSON.stringify({
        ...name(supplier, external),
        notes: [
          {
            external_id: `N-${item}`,
            body: 'Customer asked for paper bills from next quarter.',
            created_at: '2024-01-15T10:00:00Z',
          },
        ],
      }),
  },
  {
    name: 'add-payment-instruction',
    path: '/v1/data-import/payment-instruction/create/',
    body: (supplier, external, item) =>
      JSON.stringify({
        ...name(supplier, external),
        type: 'CARD',
        vendor: 'STRIPE',
        reference: `CARD-${item}`,
        valid_from: '2999-01-01',
      }),
  },
];

/** Transactions in each request of the transactions scenario. */
export const TRANSACTIONS_PER_REQUEST = 50;

/**
 * Requests of TRANSACTIONS_PER_REQUEST new transactions each (credits and charges in turn): every
 * transaction is added. Its target is its own rate, not a ratio to staging.
 */
export const TRANSACTIONS_SCENARIO: PostImportScenario = {
  name: 'transactions',
  path: '/v1/data-import/transactions/create/',
  body: (supplier, external, item) =>
    JSON.stringify({
      ...name(supplier, external),
      transactions: Array.from({ length: TRANSACTIONS_PER_REQUEST }, (_, i) => ({
        type: i % 2 === 0 ? 'CREDIT' : 'CHARGE',
        transaction_id: `T-${item}-${i}`,
        transaction_date: '2024-05-01',
        amount: i % 2 === 0 ? '12.34' : '10.01',
        reason: i % 2 === 0 ? 'IMPORTED_CREDIT' : 'IMPORTED_CHARGE',
        note: 'bench transaction',
      })),
    }),
};
