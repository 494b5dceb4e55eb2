import { constants } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export type Encoding = 'br' | 'gzip';

/** Answers larger than this are compressed; smaller ones gain too little to be worth the CPU. */
export const COMPRESS_ABOVE_BYTES = 1024;

const negotiator = new Negotiator<Encoding | 'identity'>({ supportedValues: ['br', 'gzip', 'identity'] });

/**
 * The encoding this client prefers among ours (brotli first), or undefined for none. Read as
 * @fastify/compress reads it for the other answers: coding names in any letter case (RFC 9110),
 * `x-gzip` as gzip.
 */
export function acceptedEncoding(request: FastifyRequest): Encoding | undefined {
  const header = request.headers['accept-encoding'];
  if (!header) return undefined;
  const chosen = negotiator.negotiate(header.toLowerCase().replace(/\bx-gzip\b/g, 'gzip'));
  return chosen === 'identity' || chosen === null ? undefined : chosen;
}

/**
 * JSON answers over 1 KiB go out compressed (brotli, else gzip) to clients that accept it, by
 * @fastify/compress on each route. Routes that keep their answer as bytes (the news list) compress
 * it once themselves and say `compress: false`, as do the file downloads (PDFs and attachments:
 * already compressed, or sent with byte ranges).
 */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(fastifyCompress, {
      global: true,
      threshold: COMPRESS_ABOVE_BYTES + 1,
      encodings: ['br', 'gzip'],
      customTypes: /^application\/(?:[\w.+-]+\+)?json(?:;|$)/,
      // A 256 KiB window rather than the default 4 MiB: our answers are far smaller than either, and
      // each compression's memory shrinks with the window.
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 18 } },
    });
  },
  { name: 'compression' },
);
