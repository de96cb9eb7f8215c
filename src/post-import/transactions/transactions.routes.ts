/** HTTP of transactions/create: path, schema and status code, nothing else. */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../auth/access.js';
import type { AppContext } from '../../context.js';
import { createTransactionsSchema, documentCreateTransactions } from './transactions.schemas.js';
import { readTransactionFlags } from './transactions.request.js';
import { addTransactions, confirmTransactions, resultsText } from './transactions.service.js';

export const TRANSACTIONS_PATH = '/v1/data-import/transactions/create/';

export function registerTransactionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    TRANSACTIONS_PATH,
    {
      schema: createTransactionsSchema,
      ...authenticate(ctx),
      config: {
        nulAsFieldErrors: true,
        callerCheckedFirst: true,
        swaggerTransform: documentCreateTransactions,
      },
    },
    async (request, reply) => {
      readTransactionFlags(request.query as Record<string, unknown>);
      const { body, nulPaths } = request;
      const access = await confirmTransactions(ctx, request.caller, body, nulPaths);
      const results = await addTransactions(ctx, access);
      // Written directly: a transaction's shape is open-ended (five variants), and each is
      // already JSON text.
      reply.code(201).type('application/json; charset=utf-8');
      return reply.send(resultsText(results));
    },
  );
}
