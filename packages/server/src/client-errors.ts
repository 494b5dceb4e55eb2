import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** What a request that never became one (malformed HTTP, headers too large, too slow) is told. */
const answers: Record<string, { status: number; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers are too large.' },
};
const malformed = { status: 400, detail: 'Malformed request.' };

/**
 * Fastify's clientErrorHandler: Node's HTTP parser refused the bytes before any route saw them. As
 * Fastify's own handler does, answer once if the socket can still take it and close; but in the
 * contract's error shape, `{detail}`, rather than Fastify's `{error, message, statusCode}`.
 */
export function answerClientError(this: unknown, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, detail } = answers[error.code ?? ''] ?? malformed;
  const body = JSON.stringify({ detail });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
