/** HTTP of the meter point registrations: paths, schemas and status codes, nothing else. */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { authenticate, declaredBodyBytes } from '../../auth/access.js';
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

/**
 * A send takes no body, and a client sending none may still name a content type no parser reads
 * (`curl -d ''` names a form's, `fetch` with an empty string text), which would be refused 415:
 * a request that declares no body loses its content type, and reaches the route without one.
 * A JSON body of no bytes sent in chunks is the parser's (`emptyBodyAccepted`).
 */
function withoutBodyWhenNoneDeclared(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (declaredBodyBytes(request) === 0) delete request.headers['content-type'];
  done();
}

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
    {
      schema: sendSchema,
      ...access,
      onRequest: [access.onRequest, withoutBodyWhenNoneDeclared],
      config: { emptyBodyAccepted: true },
    },
    async (request) =>
      sendRegistrationFlows(ctx, request.caller, nameOf(request.params), request.body),
  );
}
