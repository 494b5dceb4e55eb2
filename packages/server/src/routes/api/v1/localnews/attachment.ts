import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpErrors } from '../../../../http-errors.js';
import { findNewsFile } from '../../../../repositories/news.js';
import { attachmentDisposition } from '../../../../storage/file-names.js';
import { parseId } from '../../../parse-id.js';
import { replyWithFile } from '../../../reply-with-file.js';

/**
 * GET/HEAD /api/v1/localnews/files/{id}?expires=…&sig=…: streams an attachment. An unknown id and a bad
 * or expired signature all answer the same 404, so a link reveals nothing. Served as a download with
 * its sniffed type and `nosniff`, so an uploaded HTML page can never run in our origin.
 */
export function attachmentHandler(app: FastifyInstance) {
  return async function attachment(request: FastifyRequest, reply: FastifyReply) {
    const id = parseId((request.params as { id?: string }).id);
    const { expires, sig } = request.query as Record<string, unknown>;
    if (id === undefined || !app.urlSigner.current(expires, sig)) throw httpErrors.notFound();
    // Checked once the file is known: the signature covers its stored name too, so a link never opens
    // another file that came to have its id (ids are reused after a backup is restored).
    const file = await findNewsFile(app.db, id);
    if (!file || !app.urlSigner.verify(id, file.storage_name, expires, sig)) throw httpErrors.notFound();
    const handle = await app.uploads.open(file.storage_name);
    if (!handle) throw httpErrors.notFound();
    reply.headers({
      'content-type': file.content_type,
      'content-length': String(file.size),
      'content-disposition': attachmentDisposition(file.original_name),
      'x-content-type-options': 'nosniff',
      // Even opened in a tab, the file runs nothing and reaches nothing.
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=3600',
    });
    if (request.method === 'HEAD') {
      await handle.close();
      return reply.send();
    }
    return replyWithFile(request, reply, handle, 0, file.size - 1);
  };
}
