/** HTTP of the meter point registrations: paths, schemas and status codes, nothing else. */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { sendSchema, statusesSchema } from './registrations.schemas.js';
import { meterPointStatuses, sendRegistrationFlows } from './registrations.service.js';

const BASE = '/v1/data-import';

type AccountParams = { import_supplier_code: string; external_account_number: string };

const nameOf = ({
  import_supplier_code: supplierCode,
  external_account_number,
}: AccountParams) => ({
  supplierCode,
  externalAccountNumber: external_account_number,
});

export async function registerRegistrationRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<void> {
  const access = authenticate(ctx);

  app.get<{ Params: AccountParams }>(
    `${BASE}/meterpoint-statuses-for-account/:import_supplier_code/:external_account_number/`,
    { schema: statusesSchema, ...access },
    async (request) => meterPointStatuses(ctx, request.caller, nameOf(request.params)),
  );

  app.post<{ Params: AccountParams }>(
    `${BASE}/send-registration-flows/:import_supplier_code/:external_account_number/`,
    { schema: sendSchema, ...access },
    async (request) =>
      sendRegistrationFlows(ctx, request.caller, nameOf(request.params), request.body),
  );
}
