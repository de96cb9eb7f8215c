/**
 * Counts route handlers still running. Closing the server waits for open connections only; a
 * handler whose client has gone keeps running, and closing the database under it would fail a
 * creation half way (its claim then waits out the lease). Shutdown waits for this count to
 * reach zero before the database is closed.
 */
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves when no tracked route handler is running. */
    handlersDrained(): Promise<void>;
  }
}

/** Tracks the handlers of routes whose path starts with one of the prefixes; call before routes. */
export function trackHandlers(app: FastifyInstance, prefixes: readonly string[]): void {
  let running = 0;
  const waiters: (() => void)[] = [];
  const settle = () => {
    running--;
    if (running === 0) waiters.splice(0).forEach((wake) => wake());
  };

  app.decorate('handlersDrained', () =>
    running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  );

  app.addHook('onRoute', (route) => {
    if (!prefixes.some((prefix) => route.url.startsWith(prefix))) return;
    const handler = route.handler as RouteHandlerMethod;
    // Only async handlers are tracked; every tracked route (ours and mercurius') is one.
    route.handler = async function tracked(this: FastifyInstance, request, reply) {
      running++;
      try {
        return await handler.call(this, request, reply);
      } finally {
        settle();
      }
    } as RouteHandlerMethod;
  });
}
