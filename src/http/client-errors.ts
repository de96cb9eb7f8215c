/**
 * Errors Node's HTTP parser raises before a request reaches Fastify (a malformed request line,
 * oversized headers, a client too slow to send its request), answered in the service's error
 * format instead of Fastify's default body.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../errors.js';

function errorFor(code: string | undefined): ServiceError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ServiceError({ code: 'request_timeout' });
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError({ code: 'request_header_fields_too_large' });
  }
  return new ServiceError({ code: 'malformed_request', detail: 'The request is not valid HTTP.' });
}

export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const serviceError = errorFor(error.code);
    const body = JSON.stringify(serviceError.body);
    socket.write(
      `HTTP/1.1 ${serviceError.status} ${STATUS_CODES[serviceError.status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
