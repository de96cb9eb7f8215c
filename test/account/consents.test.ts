/** Consents, of a customer and of the account: published types, values and signing times. */
import { describe, expect, it } from 'vitest';
import { accountWithCustomer as withCustomer, buildAccount } from './factory.js';
import { expectProblem, expectProblems, valueOf } from './helpers.js';

describe('consents', () => {
  it('need a type (any value but null) and a known value', () => {
    const consents = [
      { type: 'MARKETING_SMS', value: 'PENDING' },
      // Published without a type of its own: v1's list of five types is gone.
      { type: 'MARKETING_FAX', value: 'ACCEPTED' },
      { type: { channel: 'post' }, value: 'MAYBE' },
      { value: 'ACCEPTED' },
      { type: null, value: 'REJECTED' },
    ];
    expectProblems(withCustomer({ consents }), [
      { code: 'invalid_choice', attr: 'customers.0.consents.2.value' },
      { code: 'required', attr: 'customers.0.consents.3.type' },
      { code: 'null', attr: 'customers.0.consents.4.type' },
    ]);
  });

  it('are signed at a real datetime, not in the future, kept in UTC', () => {
    const consents = [
      { type: 'MARKETING_SMS', value: 'ACCEPTED', signed_at: '2024-01-01T10:00:00+02:00' },
      { type: 'MARKETING_EMAIL', value: 'ACCEPTED', signed_at: '2024-01-01' },
    ];
    expect(
      valueOf(withCustomer({ consents })).customers?.[0]?.consents?.map((c) => c.signed_at),
    ).toEqual(['2024-01-01T08:00:00Z', '2024-01-01T00:00:00Z']);
    expectProblems(
      withCustomer({
        consents: [
          { type: 'A', value: 'ACCEPTED', signed_at: '2024-01-01T25:00:00Z' },
          // Today is 2025-06-15: the first second of tomorrow, written from a zone behind UTC.
          { type: 'B', value: 'ACCEPTED', signed_at: '2025-06-15T23:00:00-01:00' },
        ],
      }),
      [
        { code: 'invalid_datetime', attr: 'customers.0.consents.0.signed_at' },
        { code: 'date_in_future', attr: 'customers.0.consents.1.signed_at' },
      ],
    );
  });

  it('have one type each, the repeat reported where it is', () => {
    const consents = [
      { type: 'MARKETING_SMS', value: 'ACCEPTED' },
      { type: 'MARKETING_POST', value: 'ACCEPTED' },
      { type: 'MARKETING_SMS', value: 'REJECTED' },
    ];
    expectProblem(
      withCustomer({ consents }),
      'children_with_duplicate_values',
      'customers.0.consents.2.type',
    );
  });

  it('are also accepted at account level, with the same rules', () => {
    const consents = [
      { type: 'THIRD_PARTY_SHARING', value: 'REJECTED', signed_at: '2024-01-01T00:00:00Z' },
    ];
    expect(valueOf(buildAccount({ consents })).consents).toEqual(consents);
    expectProblems(
      buildAccount({
        consents: [
          { type: 'X', value: 'UNKNOWN' },
          { type: 'X', value: 'MAYBE' },
        ],
      }),
      [
        { code: 'invalid_choice', attr: 'consents.1.value' },
        { code: 'children_with_duplicate_values', attr: 'consents.1.type' },
      ],
    );
  });
});
