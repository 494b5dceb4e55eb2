import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { serverMessages } from '@hello/contract';
import { ApiError } from './http-errors.js';

/** How often, and how many times in a row, a stuck parser is seen before the request is refused. */
const STALL_POLL_MS = 125;
const STALL_POLLS = 4;

/**
 * `request.parts()`, but a parser that stops making progress answers 400 instead of hanging the request
 * for ever. @fastify/busboy 3.2.6 stalls on a part without a Content-Disposition header that is larger
 * than its buffer (~16 KiB): it neither finishes nor fails, and holds the request body paused. Waiting
 * for the next part while the body stays paused (back-pressure from the parser itself, not a slow
 * client, whose body is merely idle) and has not ended for a second is that stall.
 */
export async function* guardedParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    const next = await withStallGuard(request, parts.next());
    if (next.done) return;
    yield next.value;
  }
}

function withStallGuard<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
  const raw = request.raw;
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    let seen = 0;
    timer = setInterval(() => {
      seen = raw.isPaused() && !raw.readableEnded ? seen + 1 : 0;
      if (seen >= STALL_POLLS) reject(new ApiError(400, { detail: serverMessages.malformedBody }));
    }, STALL_POLL_MS);
  });
  return Promise.race([work, stalled]).finally(() => clearInterval(timer));
}
