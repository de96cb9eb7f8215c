/**
 * Baseline "bare JSON echo": Fastify 5 parses the JSON body and serialises it back. Whatever
 * validate costs beyond this is the service's own work.
 */
import Fastify from 'fastify';
import { listenUntilStopped } from './listen.js';

const app = Fastify({ logger: false });
app.post('/echo', async (request) => request.body);

await listenUntilStopped(app, async () => {});
