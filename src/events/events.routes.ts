/** HTTP of the account events (v2): one account's timeline and a supplier's feed. */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth/access.js';
import type { AppContext } from '../context.js';
import { feedSchema, timelineSchema } from './events.schemas.js';
import { accountTimeline, supplierFeed, type FeedQuery } from './events.service.js';

const BASE = '/v2/data-import';

type TimelineParams = { import_supplier_code: string; external_account_number: string };

export async function registerEventRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const access = authenticate(ctx);

  app.get<{ Params: TimelineParams }>(
    `${BASE}/accounts/:import_supplier_code/:external_account_number/events/`,
    { schema: timelineSchema, ...access },
    async (request) => {
      const { import_supplier_code: code, external_account_number: external } = request.params;
      return accountTimeline(ctx, request.caller, code, external);
    },
  );

  app.get<{ Params: { import_supplier_code: string }; Querystring: FeedQuery }>(
    `${BASE}/events/:import_supplier_code/`,
    { schema: feedSchema, ...access },
    async (request) =>
      supplierFeed(ctx, request.caller, request.params.import_supplier_code, request.query),
  );
}
