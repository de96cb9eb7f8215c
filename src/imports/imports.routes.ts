/** HTTP of the data-import interface: paths, schemas and status codes, nothing else. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/access.js';
import type { AppContext } from '../context.js';
import { LargeJsonText } from '../http/json-body.js';
import type { ListKind } from './queries/lists.repository.js';
import {
  documentValidate,
  listSchema,
  processSchema,
  stageSchema,
  statusSchema,
  validateSchema,
} from './imports.schemas.js';
import type { ImportResources } from './imports.wiring.js';
import {
  confirmStage,
  stageAccount,
  validateAccountText,
  validateLargeAccount,
} from './staging/staging.service.js';
import { confirmProcess, processAccount } from './creation/creation.service.js';
import { confirmStatus, getTransferStatus } from './queries/status.service.js';
import { confirmList, listImportProcesses, type ListQuery } from './queries/lists.service.js';

const BASE = '/v1/data-import';

type SupplierParams = { import_supplier: string };
type StatusParams = SupplierParams & { external_account_number: string };

const LISTS: { path: string; kind: ListKind; operationId: string; summary: string }[] = [
  {
    path: 'all-account-import-processes',
    kind: 'all',
    operationId: 'listAllAccountImportProcesses',
    summary: 'All staged and imported accounts of a supplier',
  },
  {
    path: 'pending-account-import-processes',
    kind: 'pending',
    operationId: 'listPendingAccountImportProcesses',
    summary: 'Staged accounts with no account yet',
  },
  {
    path: 'imported-account-import-processes',
    kind: 'imported',
    operationId: 'listImportedAccountImportProcesses',
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

export async function registerImportRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  { creations, suppliers, streams, pace, threads }: ImportResources,
): Promise<void> {
  const access = authenticate(ctx);

  // Each handler's first step confirms its caller (src/auth/access.ts); `callerCheckedFirst`
  // hands it a body the parser refused, to refuse after that step.
  app.post(
    `${BASE}/validate-account/`,
    {
      schema: validateSchema,
      ...access,
      config: {
        jsonText: true,
        nulAsFieldErrors: true,
        callerCheckedFirst: true,
        largeBodiesOffLoop: true,
        swaggerTransform: documentValidate,
      },
    },
    async (request, reply) => {
      // Serialised directly: the payload's shape is open-ended, which a schema serialiser
      // would walk generically, more slowly than JSON.stringify.
      reply.type('application/json; charset=utf-8');
      const { caller, body, nulPaths } = request;
      if (body instanceof LargeJsonText) {
        return reply.send(await validateLargeAccount(ctx, suppliers, threads, caller, body));
      }
      return reply.send(await validateAccountText(ctx, suppliers, threads, caller, body, nulPaths));
    },
  );

  app.post(
    `${BASE}/account-import-process/create-or-update/`,
    {
      schema: stageSchema,
      ...access,
      config: {
        jsonText: true,
        nulAsFieldErrors: true,
        callerCheckedFirst: true,
        largeBodiesOffLoop: true,
      },
    },
    async (request, reply) => {
      const { body, nulPaths } = request;
      const confirmed = await confirmStage(ctx, suppliers, threads, request.caller, body, nulPaths);
      const result = await stageAccount(ctx, suppliers, threads, confirmed);
      const { created, ...answer } = result;
      return reply.code(created ? 201 : 200).send(answer);
    },
  );

  app.post(
    `${BASE}/account-import-process/process/`,
    {
      schema: processSchema,
      ...access,
      config: { nulAsFieldErrors: true, callerCheckedFirst: true },
    },
    async (request, reply) => {
      const { body, nulPaths } = request;
      const confirmed = await confirmProcess(ctx, creations, request.caller, body, nulPaths);
      return reply.code(201).send(await processAccount(ctx, confirmed));
    },
  );

  app.get<{ Params: StatusParams }>(
    `${BASE}/account-transfer-status/:import_supplier/:external_account_number/`,
    { schema: statusSchema, ...access },
    async (request) => {
      const { import_supplier: code, external_account_number: external } = request.params;
      const confirmed = await confirmStatus(ctx, request.caller, code, external);
      return getTransferStatus(confirmed, code, external);
    },
  );

  for (const list of LISTS) {
    app.get<{ Params: SupplierParams; Querystring: ListQuery }>(
      `${BASE}/${list.path}/:import_supplier/`,
      { schema: listSchema(list.operationId, list.summary), ...access },
      async (request, reply: FastifyReply) => {
        const code = request.params.import_supplier;
        const confirmed = await confirmList(ctx, request.caller, code, list.kind, request.query);
        const result = listImportProcesses(ctx, confirmed, code, list.kind, {
          streams,
          pace,
        });
        reply.type('application/json; charset=utf-8');
        if (result.kind === 'stream') return reply.send(result.body);
        if (result.next) reply.header('Link', nextLink(request, result.next, request.query.limit));
        return reply.send(result.body);
      },
    );
  }
}
