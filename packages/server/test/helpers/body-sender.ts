import { once } from 'node:events';
import { connect } from 'node:net';

export interface SentBody {
  /** The status line's code, 0 when no answer was read. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The socket errors seen (EPIPE, ECONNRESET, ...), none for a clean exchange. */
  errors: string[];
  /** Body bytes written before the client stopped (all of them unless an error stopped it). */
  written: number;
  /** From the first byte of the request to the connection's close. */
  tookMs: number;
}

export interface SendOptions {
  port: number;
  path: string;
  body: Buffer;
  /** With Content-Length (the default) or chunked, with no length. */
  framing?: 'content-length' | 'chunked';
  /** The Content-Length announced, when it is not the body's. */
  declaredLength?: number;
  /** After this many bytes of the body, go on at 1 KiB each 200 ms (a slow client) until the server closes; Content-Length framing only. */
  trickleAfter?: number;
  chunkBytes?: number;
  timeoutMs?: number;
}

/**
 * A POST over a raw socket, written as a real client writes a large body: the headers, then the
 * body chunk by chunk as fast as the socket takes it, reading whatever the server answers meanwhile;
 * then it waits for the server to close. Nothing is hidden: every socket error is reported.
 */
export async function sendBody(options: SendOptions): Promise<SentBody> {
  const { port, path, body, framing = 'content-length', chunkBytes = 64 * 1024, timeoutMs = 20_000 } = options;
  // Half-open allowed: the client goes on sending its body after the server's answer and end, as one
  // that does not look at the answer before it has sent the body does; it ends its side after the server.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const errors: string[] = [];
  const received: Buffer[] = [];
  socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  // Not events.once: it rejects on 'error', and errors are an outcome here.
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const timer = setTimeout(() => {
    errors.push('timeout');
    socket.destroy();
  }, timeoutMs);
  let written = 0;
  let started = Date.now();
  try {
    await once(socket, 'connect');
    started = Date.now();
    const length =
      framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.declaredLength ?? body.length}`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${length}\r\n\r\n`,
    );
    const end = Math.min(body.length, options.trickleAfter ?? body.length);
    for (let offset = 0; offset < end && socket.writable; offset += chunkBytes) {
      const chunk = body.subarray(offset, Math.min(offset + chunkBytes, end));
      const framed =
        framing === 'chunked' ? [Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')] : [chunk];
      let flushed = true;
      for (const part of framed) flushed = socket.write(part) && flushed;
      written += chunk.length;
      // Reads between writes, as a client polling its socket does; it waits only while the socket is full.
      if (flushed) await new Promise(setImmediate);
      else await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    }
    if (options.trickleAfter !== undefined) {
      for (let offset = end; offset < body.length && !socket.destroyed; offset += 1024) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        socket.write(body.subarray(offset, offset + 1024));
        written += 1024;
      }
    }
    if (framing === 'chunked' && socket.writable) socket.write('0\r\n\r\n');
    // Our end only after the server's: Node's HTTP server takes a client's end as the end of the
    // connection, and drops the answers it had not sent yet.
    if (!socket.readableEnded) await Promise.race([new Promise((resolve) => socket.once('end', resolve)), closed]);
    socket.end();
  } catch {
    // the error is in `errors`
  }
  await closed;
  clearTimeout(timer);
  return { ...parseAnswer(Buffer.concat(received).toString('utf8')), errors, written, tookMs: Date.now() - started };
}

function parseAnswer(text: string): Pick<SentBody, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: text.slice(end + 4) };
}
