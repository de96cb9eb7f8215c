/** JSON request bodies: one strict parser, and the object check every POST route needs. */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../errors.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // JSON.parse yields `__proto__` as a plain own key and never touches prototypes; the payload
  // validators then report such keys as unknown fields, so nothing needs stripping here.
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(
        new ServiceError('malformed_request', 'The body is empty; send a JSON object.'),
        undefined,
      );
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
      done(
        new ServiceError('malformed_request', `The body is not valid JSON${reason}.`),
        undefined,
      );
    }
  });
}

/** Returns the body when it is a JSON object; otherwise a 400 malformed_request. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('malformed_request', 'The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}
