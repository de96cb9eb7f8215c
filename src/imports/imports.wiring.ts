/**
 * The caches and pools the import routes share, built once per app (src/app.ts) and handed to
 * registerImportRoutes, so the routes only route.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { FairPace } from '../http/fair-pace.js';
import { OrganisationShares } from '../http/organisation-shares.js';
import { ValidationThreads } from '../account/threads/validation-threads.js';
import { CreationSlots } from './creation/creation-slots.js';
import { KnownSuppliers } from './staging/known-suppliers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where staged payloads are checked (for the tests' and operators' eyes). */
    readonly validationThreads: ValidationThreads;
  }
}

export interface ImportResources {
  /** Bounds the accounts created at once (process requests). */
  readonly creations: CreationSlots;
  /** The suppliers stages validate against without reading them again. */
  readonly suppliers: KnownSuppliers;
  /** Each organisation's share of the unpaged (streamed) lists. */
  readonly streams: OrganisationShares;
  /** How an unpaged list gives way to other organisations between its batches. */
  readonly pace: FairPace;
  /** Where staged payloads are checked off the event loop. */
  readonly threads: ValidationThreads;
}

/**
 * Builds the import resources for `app`: its validation threads are decorated on it as
 * `validationThreads` and closed when it closes.
 */
export function wireImports(
  app: FastifyInstance,
  ctx: AppContext,
  pace: FairPace,
): ImportResources {
  const creations = new CreationSlots(ctx.config.processConcurrencyLimit);
  const suppliers = new KnownSuppliers();
  const streams = new OrganisationShares(ctx.config.organisationListStreams, 'unpaged lists');
  const threads = new ValidationThreads(ctx.config.validationThreads, ctx.platform, (error) =>
    app.log.error({ err: error }, 'a validation thread failed; its payloads are checked again'),
  );
  app.addHook('onClose', () => threads.close());
  app.decorate('validationThreads', threads);
  return { creations, suppliers, streams, pace, threads };
}
