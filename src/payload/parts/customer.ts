/** Customers, with their consents and priority-services register entries. */
import { birthDate, date, datetime } from '../dates.js';
import { defaulted, nullable, object, optional, required } from '../object.js';
import { email } from '../rules/email.js';
import { phone } from '../rules/phone.js';
import { bool, enumOf, pattern, str } from '../scalars.js';
import { array, type Infer } from '../validators.js';

export const consent = object({
  type: required(
    enumOf([
      'MARKETING_EMAIL',
      'MARKETING_SMS',
      'MARKETING_POST',
      'MARKETING_PHONE',
      'THIRD_PARTY_SHARING',
    ]),
  ),
  value: required(enumOf(['ACCEPTED', 'REJECTED', 'UNKNOWN', 'PENDING'])),
  signed_at: optional(datetime()),
});

export const psrRecord = object({
  code: required(
    pattern(/^(?:0[1-9]|[1-9][0-9])$/, 'Expected a two-digit code from 01 to 99.'),
    'Needs code, two digits from 01 to 99.',
  ),
  effective_from: required(date()),
  effective_to: optional(date({ notBefore: 'effective_from' })),
});

export const customer = object({
  given_name: required(str(255)),
  family_name: required(str(255)),
  title: optional(str(20)),
  salutation: optional(str(128)),
  email: optional(email, 'Reserved example/test domains are refused.'),
  mobile: nullable(phone('mobile')),
  landline: nullable(phone('landline')),
  date_of_birth: nullable(birthDate),
  is_primary: defaulted(
    bool,
    false,
    'At most one customer is primary; when none is marked the first one becomes primary.',
  ),
  consents: optional(array(consent)),
  psr: optional(array(psrRecord, { description: 'Priority-services register entries.' })),
});

export type Consent = Infer<typeof consent>;
export type PsrRecord = Infer<typeof psrRecord>;
export type Customer = Infer<typeof customer>;
