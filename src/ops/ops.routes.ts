/** Operational endpoints: liveness, readiness (database reachable) and metrics. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { ServiceError } from '../errors.js';
import { errorBody } from '../http/error-schemas.js';
import { metricsText } from './metrics.js';

const statusSchema = {
  type: 'object',
  properties: { status: { type: 'string' } },
  required: ['status'],
} as const;

const READY_TIMEOUT_MS = 2_000;

export async function registerOpsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['operations'],
        summary: 'The process is up',
        response: { 200: statusSchema },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'The database is reachable',
        response: {
          200: statusSchema,
          503: {
            description: '`service_unavailable`: the database does not answer',
            ...errorBody,
            headers: { 'Retry-After': { type: 'string' } },
          },
        },
      },
    },
    async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
      });
      try {
        await Promise.race([sql`select 1`.execute(ctx.db.kysely), timeout]);
      } catch {
        throw new ServiceError({
          code: 'service_unavailable',
          detail: 'The database is not reachable.',
          headers: {
            'Retry-After': '1',
          },
        });
      } finally {
        clearTimeout(timer);
      }
      return { status: 'ready' };
    },
  );

  app.get(
    '/metrics',
    { schema: { tags: ['operations'], summary: 'Prometheus metrics', hide: true } },
    async (_request, reply) => reply.type('text/plain; version=0.0.4').send(await metricsText(ctx)),
  );
}
