/** HTTP of the v2 data-import interface: paths, schemas and status codes, nothing else. */
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth/access.js';
import type { AppContext } from '../context.js';
import type { ImportResources } from '../imports/imports.wiring.js';
import {
  cancelSchema,
  importStatusSchema,
  scheduleSchema,
  validateV2Schema,
} from './schedules.schemas.js';
import { scheduleAccount, validateWrapped } from './schedules.service.js';
import { cancelSchedule, getImportStatus } from './schedule-status.service.js';
import { TeamIds } from './team-ids.js';

const BASE = '/v2/data-import/accounts';

type AccountParams = { import_supplier_code: string; external_identifier: string };

export async function registerScheduleRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { suppliers, threads }: ImportResources,
): Promise<void> {
  const access = authenticate(ctx);
  const resources = { suppliers, threads, teams: new TeamIds() };
  // Each handler's first step confirms its caller, as the v1 routes' do.
  const bodyConfig = { nulAsFieldErrors: true, callerCheckedFirst: true };

  app.post(
    `${BASE}/`,
    // Kept as text: its common case is parsed on a validation thread (scheduleAccount).
    { schema: scheduleSchema, ...access, config: { ...bodyConfig, jsonText: true } },
    async (request, reply) => {
      const { caller, body, nulPaths } = request;
      const answer = await scheduleAccount(ctx, resources, caller, body, nulPaths);
      return reply.code(201).send(answer);
    },
  );

  app.post(
    `${BASE}/validate/`,
    { schema: validateV2Schema, ...access, config: bodyConfig },
    async (request, reply) => {
      const { caller, body, nulPaths } = request;
      await validateWrapped(ctx, resources, caller, body, nulPaths);
      return reply.code(200).send();
    },
  );

  app.get<{ Params: AccountParams }>(
    `${BASE}/:import_supplier_code/:external_identifier/`,
    { schema: importStatusSchema, ...access },
    async (request) => {
      const { import_supplier_code: code, external_identifier: external } = request.params;
      return getImportStatus(ctx, request.caller, code, external);
    },
  );

  app.post<{ Params: AccountParams }>(
    `${BASE}/:import_supplier_code/:external_identifier/cancel/`,
    { schema: cancelSchema, ...access },
    async (request) => {
      const { import_supplier_code: code, external_identifier: external } = request.params;
      return cancelSchedule(ctx, request.caller, code, external, request.id);
    },
  );
}
