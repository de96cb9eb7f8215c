/**
 * HTTP of the post-import endpoints: paths, schemas and status codes, nothing else. Each that
 * answers 201 with what its service returns is one entry of ENDPOINTS (it reads a JSON body and
 * confirms its caller first: src/auth/access.ts); transactions (an answer written as text) and
 * the registrations (paths naming the account) register their own routes, from here.
 */
import type { FastifyInstance } from 'fastify';
import { authenticate, type Caller } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { NulPath } from '../http/json-body.js';
import { createNotes } from './notes/notes.service.js';
import { notesSchema } from './notes/notes.schemas.js';
import { paymentInstructionSchema } from './payment-instructions/payment-instructions.schemas.js';
import { createPaymentInstruction } from './payment-instructions/payment-instructions.service.js';
import { documentStatements, statementsSchema } from './statements/statements.schemas.js';
import { createStatements } from './statements/statements.service.js';
import { registerRegistrationRoutes } from './registrations/registrations.routes.js';
import { registerTransactionRoutes } from './transactions/transactions.routes.js';

const BASE = '/v1/data-import';

/** A post-import endpoint: its path under BASE, its schema and the service that answers it. */
interface PostImportEndpoint {
  readonly path: string;
  readonly schema: object;
  /** The route as the OpenAPI document shows it, when that differs from its schema. */
  readonly document?: (route: { url: string }) => { url: string; schema: object };
  readonly create: (
    ctx: AppContext,
    caller: Caller,
    body: unknown,
    nulPaths: readonly NulPath[] | undefined,
  ) => Promise<unknown>;
}

const ENDPOINTS: readonly PostImportEndpoint[] = [
  {
    path: 'historical-statements/create',
    schema: statementsSchema,
    document: documentStatements,
    create: createStatements,
  },
  { path: 'notes/create', schema: notesSchema, create: createNotes },
  {
    path: 'payment-instruction/create',
    schema: paymentInstructionSchema,
    create: createPaymentInstruction,
  },
];

export async function registerPostImportRoutes(
  app: FastifyInstance,
  ctx: AppContext,
): Promise<void> {
  const access = authenticate(ctx);
  for (const endpoint of ENDPOINTS) {
    app.post(
      `${BASE}/${endpoint.path}/`,
      {
        schema: endpoint.schema,
        ...access,
        config: {
          nulAsFieldErrors: true,
          callerCheckedFirst: true,
          ...(endpoint.document ? { swaggerTransform: endpoint.document } : {}),
        },
      },
      async (request, reply) => {
        const { caller, body, nulPaths } = request;
        return reply.code(201).send(await endpoint.create(ctx, caller, body, nulPaths));
      },
    );
  }
  registerTransactionRoutes(app, ctx);
  await registerRegistrationRoutes(app, ctx);
}
