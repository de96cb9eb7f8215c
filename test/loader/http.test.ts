/** The loader's HTTP transport against a real local server: JSON, keep-alive and failures. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, NetworkError } from '../../src/loader/http.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server | undefined;
let client: HttpClient | undefined;

/** A server answering with `handler`; returns its base URL and its count of connections. */
async function serve(handler: Handler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => handler(request, body, response));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/base`, connections: () => connections };
}

afterEach(async () => {
  await client?.close();
  client = undefined;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('loader HTTP client', () => {
  it('sends JSON with its token and reads JSON back, over one kept-alive connection', async () => {
    const { url, connections } = await serve((request, body, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          path: request.url,
          authorization: request.headers.authorization,
          type: request.headers['content-type'],
          echoed: JSON.parse(body) as unknown,
        }),
      );
    });
    client = new HttpClient(url, 2);
    for (const name of ['Zoë', 'Ann']) {
      const answer = await client.request({
        method: 'POST',
        path: '/v1/x/',
        json: { name },
        token: 't0k',
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        path: '/base/v1/x/',
        authorization: 'Token t0k',
        type: 'application/json',
        echoed: { name },
      });
    }
    expect(connections()).toBe(1);
  });

  it('returns a body that is not JSON as text, and an empty one as undefined', async () => {
    const { url } = await serve((request, _body, response) => {
      response.statusCode = request.url === '/base/text' ? 502 : 204;
      response.end(request.url === '/base/text' ? 'Bad gateway' : undefined);
    });
    client = new HttpClient(url, 1);
    expect(await client.request({ method: 'GET', path: '/text' })).toMatchObject({
      status: 502,
      body: 'Bad gateway',
    });
    expect((await client.request({ method: 'GET', path: '/empty' })).body).toBeUndefined();
  });

  it('fails with a NetworkError when the connection is refused', async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    client = new HttpClient(url, 1);
    const failure = client.request({ method: 'GET', path: '/' });
    await expect(failure).rejects.toBeInstanceOf(NetworkError);
    await expect(failure).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('fails with a NetworkError when the connection breaks in the middle of an answer', async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"partial":');
      response.socket?.destroy();
    });
    client = new HttpClient(url, 1);
    await expect(client.request({ method: 'GET', path: '/' })).rejects.toBeInstanceOf(NetworkError);
  });
});
