/** Shared by the baseline servers: listen on PORT, stop on SIGTERM or when the parent goes away. */
import type { FastifyInstance } from 'fastify';

export async function listenUntilStopped(
  app: FastifyInstance,
  closeResources: () => Promise<void>,
): Promise<void> {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await closeResources();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  app.get('/healthz', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
}
