/** The structured billing address. */
import { country } from '../rules/countries.js';
import { UK_POSTCODE_PATTERN, postalCode } from '../rules/postcode.js';
import { object, optional, required } from '../object.js';
import { str } from '../scalars.js';
import type { Infer } from '../validators.js';

export const address = object(
  {
    country: required(country),
    street_address: required(str(1024), 'Street lines; may contain newlines.'),
    locality: optional(str(512)),
    administrative_area: optional(str(512)),
    postal_code: optional(postalCode, undefined, {
      field: 'country',
      equals: 'GB',
      otherwise: 'optional',
    }),
  },
  {
    description: 'Structured billing address (the alternative to the legacy billing_address1..5).',
    schema: {
      allOf: [
        {
          if: { properties: { country: { const: 'GB' } }, required: ['country'] },
          then: { properties: { postal_code: { type: 'string', pattern: UK_POSTCODE_PATTERN } } },
        },
      ],
    },
  },
);

export type Address = Infer<typeof address>;
