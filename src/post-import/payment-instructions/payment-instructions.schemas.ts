/** The JSON Schema of payment-instruction/create. */
import { component, POST_IMPORT, postImportErrors } from '../post-import.schemas.js';

const text128 = { type: 'string', maxLength: 128 } as const;

export const paymentInstructionSchema = {
  ...POST_IMPORT,
  operationId: 'createPaymentInstruction',
  summary: 'Add a payment instruction to a created account',
  body: component('LegacyPaymentInstruction'),
  response: {
    201: {
      title: 'CreatePaymentInstructionResponse',
      description: 'The instruction was added',
      type: 'object',
      properties: {
        account_number: { ...text128, description: 'The same as service_account_number' },
        service_account_number: text128,
        reference: text128,
      },
      required: ['account_number', 'service_account_number', 'reference'],
    },
    ...postImportErrors(['payment_instruction_already_active']),
  },
};
