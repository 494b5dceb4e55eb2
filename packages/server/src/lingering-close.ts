import type { IncomingMessage } from 'node:http';

/**
 * What is read and thrown away of a refused body after its answer, at most: enough for the common
 * case (a body some MiB over the limit, from a client that writes before it reads) to arrive whole;
 * a client sending far more, or for ever, is cut off there, as nginx's lingering close does
 * (lingering_time 30 s). The time is shorter than nginx's because a shutdown waits for these
 * connections and has 10 s in all (main.ts); discarding is as cheap as receiving, so the bytes
 * are bounded for the bandwidth, not for memory.
 */
export const LINGER_BYTES = 4 * 1024 * 1024;
export const LINGER_MS = 5_000;

/**
 * Whether the client is still sending this request's body. `complete` is Node's (injected requests,
 * with no socket, have none); a request that declares no body may be answered before Node has
 * marked it complete, and has nothing to wait for.
 */
export function bodyStillArriving(request: IncomingMessage): boolean {
  if (request.complete !== false || request.socket.destroyed) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Closes the connection of an answer sent while the request's body is still arriving (a 413 over
 * MAX_BODY_BYTES, a refused upload) only once the body has arrived, or after LINGER_BYTES or
 * LINGER_MS. Node closes such a connection as soon as the answer is written, and a socket closed
 * with bytes still coming in makes the kernel send a reset: the client, still writing, sees EPIPE
 * or ECONNRESET, and often loses the answer it had not read yet (test/reliability/
 * over-limit-body.test.ts). Called as the answer is made, for a request whose body is still
 * arriving (bodyStillArriving), answered with `Connection: close`.
 *
 * From now on the body is read and counted into the void. Node ends the connection through
 * `socket.destroySoon()` once such an answer is written; this socket's own replaces it: end our
 * side (the client reads the answer, then the end), and destroy the socket once the body is in or
 * a bound is reached, never before the answer has left (destroy() would drop what is still queued).
 */
export function closeAfterBody(request: IncomingMessage): void {
  const socket = request.socket;
  if (Object.hasOwn(socket, 'destroySoon')) return; // already lingering (a second error for this request)
  let discarded = 0;
  let answered = false;
  let done = false;
  const destroyWhenSent = () =>
    socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy());
  const stop = () => {
    if (done) return;
    done = true;
    request.off('data', count);
    // Cut off before the body's end: read no more (the client is stopped by TCP's flow control) until
    // the answer has left and the socket is destroyed.
    if (!request.complete) request.pause();
    if (answered) destroyWhenSent();
  };
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) stop();
  };
  // A reader of our own also keeps Node from "dumping" the body after the answer: it would then
  // discard it inside its parser, where it cannot be counted.
  request.on('data', count);
  request.resume();
  // The whole body is in: nothing more will arrive, so closing now sends no reset.
  request.once('end', stop);
  const timer = setTimeout(stop, LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.destroySoon = function lingeringClose() {
    answered = true;
    socket.end();
    if (done) destroyWhenSent();
  };
}
