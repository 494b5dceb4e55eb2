import type { OutgoingHttpHeaders } from 'node:http';
import type { FileHandle } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendFileRange } from '../storage/send-file-range.js';

/**
 * Answers with bytes `start` to `end` (inclusive) of an open file as the body, under the status and
 * headers already set on the reply, then closes the file. Sent by hand (storage/send-file-range.ts
 * says why), so Fastify's onSend hooks do not run; its onResponse hooks and logging still do.
 */
export async function replyWithFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: FileHandle,
  start: number,
  end: number,
) {
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  try {
    await sendFileRange(reply.raw, file, start, end);
  } catch (error) {
    // The client going away is ordinary; a file that cannot be read is not.
    if (reply.raw.destroyed) request.log.debug({ err: error, url: request.url }, 'download ended by the client');
    else request.log.error({ err: error, url: request.url }, 'download failed after its headers were sent');
    reply.raw.destroy();
  } finally {
    await file.close();
  }
}
