/** HTTP of the data-import interface: paths, schemas and status codes, nothing else. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/access.js';
import type { AppContext } from '../context.js';
import { requireJsonText, requireObjectBody } from '../http/json-body.js';
import { OrganisationShares } from '../http/organisation-shares.js';
import { ValidationThreads } from '../payload/validation-threads.js';
import type { ListKind } from './queries/lists.repository.js';
import {
  listSchema,
  processSchema,
  stageSchema,
  statusSchema,
  validateSchema,
} from './imports.schemas.js';
import { KnownSuppliers, stageAccount, validateAccount } from './staging/staging.service.js';
import { processAccount } from './creation/creation.service.js';
import { CreationSlots } from './creation/creation-slots.js';
import {
  getTransferStatus,
  listImportProcesses,
  type ListQuery,
} from './queries/queries.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where staged payloads are checked (for the tests' and operators' eyes). */
    readonly validationThreads: ValidationThreads;
  }
}

const BASE = '/v1/data-import';

type SupplierParams = { import_supplier: string };
type StatusParams = SupplierParams & { external_account_number: string };

const LISTS: { path: string; kind: ListKind; summary: string }[] = [
  {
    path: 'all-account-import-processes',
    kind: 'all',
    summary: 'All staged and imported accounts of a supplier',
  },
  {
    path: 'pending-account-import-processes',
    kind: 'pending',
    summary: 'Staged accounts with no account yet',
  },
  {
    path: 'imported-account-import-processes',
    kind: 'imported',
    summary: 'Accounts that were created',
  },
];

function nextLink(request: FastifyRequest, cursor: string, limit: unknown): string {
  const path = request.url.split('?')[0] ?? '';
  const params = new URLSearchParams();
  if (typeof limit === 'string') params.set('limit', limit);
  params.set('after', cursor);
  return `<${path}?${params.toString()}>; rel="next"`;
}

export async function registerImportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const access = authenticate(ctx);
  const creations = new CreationSlots(ctx.config.processConcurrencyLimit);
  const suppliers = new KnownSuppliers();
  const streams = new OrganisationShares(ctx.config.organisationListStreams, 'unpaged lists');
  const threads = new ValidationThreads(ctx.config.validationThreads, (error) =>
    app.log.error({ err: error }, 'a validation thread failed; its payloads are checked again'),
  );
  app.addHook('onClose', () => threads.close());
  app.decorate('validationThreads', threads);

  app.post(
    `${BASE}/validate-account/`,
    { schema: validateSchema, ...access, config: { nulAsFieldErrors: true } },
    async (request, reply) => {
      const payload = await validateAccount(
        ctx,
        suppliers,
        request.caller,
        requireObjectBody(request.body),
        request.nulPaths,
      );
      // Serialised directly: the payload's shape is open-ended, which a schema serialiser
      // would walk generically, more slowly than JSON.stringify.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(payload));
    },
  );

  app.post(
    `${BASE}/account-import-process/create-or-update/`,
    { schema: stageSchema, ...access, config: { jsonText: true, nulAsFieldErrors: true } },
    async (request, reply) => {
      const body = requireJsonText(request.body);
      const result = await stageAccount(
        ctx,
        suppliers,
        threads,
        request.caller,
        body,
        request.nulPaths,
      );
      return reply.code(result.created ? 201 : 200).send({
        import_supplier: result.import_supplier,
        external_account_number: result.external_account_number,
      });
    },
  );

  app.post(
    `${BASE}/account-import-process/process/`,
    { schema: processSchema, ...access, config: { nulAsFieldErrors: true } },
    async (request, reply) => {
      const body = requireObjectBody(request.body);
      const created = await processAccount(ctx, creations, request.caller, body, request.nulPaths);
      return reply.code(201).send(created);
    },
  );

  app.get<{ Params: StatusParams }>(
    `${BASE}/account-transfer-status/:import_supplier/:external_account_number/`,
    { schema: statusSchema, ...access },
    async (request) =>
      getTransferStatus(
        ctx,
        request.caller,
        request.params.import_supplier,
        request.params.external_account_number,
      ),
  );

  for (const list of LISTS) {
    app.get<{ Params: SupplierParams; Querystring: ListQuery }>(
      `${BASE}/${list.path}/:import_supplier/`,
      { schema: listSchema(list.summary), ...access },
      async (request, reply: FastifyReply) => {
        const result = await listImportProcesses(
          ctx,
          request.caller,
          request.params.import_supplier,
          list.kind,
          request.query,
          streams,
        );
        reply.type('application/json; charset=utf-8');
        if (result.kind === 'stream') return reply.send(result.body);
        if (result.next) reply.header('Link', nextLink(request, result.next, request.query.limit));
        return reply.send(result.body);
      },
    );
  }
}
