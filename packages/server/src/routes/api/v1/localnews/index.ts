import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { apiPaths, serverMessages } from '@hello/contract';
import { exposeHead } from '../../../../plugins/app/openapi.js';
import { httpErrors } from '../../../../http-errors.js';
import { deleteNewsItemWithFiles } from '../../../../news/news-changes.js';
import { acceptedEncoding } from '../../../../plugins/app/compression.js';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';
import { parseId, withIdParams } from '../../../parse-id.js';
import { attachmentHandler } from './attachment.js';
import { authorsItem, requireAuthor } from './author-check.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { newsDeps } from './news-deps.js';
import { newsItemJson, newsItemMapper } from './news-item.js';
import type { NewsPage, NewsPageCache } from './news-page-cache.js';
import { deleteSchema, fileHeadSchema, fileSchema, itemSchema, listSchema } from './schemas.js';

/**
 * The news calls without a body: the list, one item, its deletion, and the attachments' signed links
 * (the creation: create.ts; the edit: edit.ts).
 */
export default async function localnewsRoutes(app: FastifyInstance, { kept }: { kept: NewsPageCache }) {
  const toNewsItem = newsItemMapper(app);

  // Authenticated before the query is validated: a caller without a session learns nothing, not even a 400.
  app.get(
    apiPaths.localNews,
    { schema: listSchema, preValidation: [app.requireBearer, decimalLimit], compress: false },
    async (request, reply) => {
      const { limit, before } = request.query as { limit: number; before?: string };
      const start = before === undefined ? undefined : decodeCursor(before);
      if (before !== undefined && !start) throw httpErrors.field('before', serverMessages.invalidCursor);
      // Each item serialized when the page is rebuilt, then the page sent as bytes.
      const page = await kept.page(newsItemJson(reply, toNewsItem), limit, start, request.principal!.newsRevision);
      if (page.next)
        reply.header('link', `<${apiPaths.localNews}?limit=${limit}&before=${encodeCursor(page.next)}>; rel="next"`);
      return sendPage(request, reply, page);
    },
  );

  // Kept like the pages, and sent the same way: one item is read about as often.
  app.get(
    withIdParams(apiPaths.localNewsItem),
    { schema: itemSchema, preHandler: app.requireBearer, compress: false },
    async (request, reply) => {
      const id = parseId((request.params as { id?: string }).id);
      const render = (item: NewsItemWithFiles, nowMs: number) => reply.serialize(toNewsItem(item, nowMs)) as string;
      const answer = id === undefined ? undefined : await kept.item(render, id, request.principal!.newsRevision);
      if (!answer) throw httpErrors.notFound();
      return sendPage(request, reply, answer);
    },
  );

  app.delete(
    withIdParams(apiPaths.localNewsItem),
    { schema: deleteSchema, onRequest: [app.requireBearer, requireAuthor(app)] },
    async (request, reply) => {
      const { id, authorId } = authorsItem(request);
      if (!(await deleteNewsItemWithFiles(newsDeps(app), id, authorId))) throw httpErrors.notFound();
      return reply.code(204).send();
    },
  );

  // A plain link (no Authorization header): the signature is the permission. HEAD is its own route
  // (not Fastify's automatic one, which would zero Content-Length), and its own operation in the
  // OpenAPI description.
  const attachment = attachmentHandler(app);
  app.get(apiPaths.localNewsFile, { schema: fileSchema, compress: false, exposeHeadRoute: false }, attachment);
  app.head(apiPaths.localNewsFile, { schema: fileHeadSchema, compress: false, config: exposeHead }, attachment);
}

/**
 * `limit` written in decimal digits: Ajv's coercion of a query string would also read `1e1`, `0x5`
 * or ` 5` as a number. A minus sign is left to the schema, whose minimum then says what is wrong.
 * Synchronous, as the list is the call read most.
 */
function decimalLimit(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  const { limit } = request.query as { limit?: unknown };
  const bad = typeof limit === 'string' && !/^-?\d+$/.test(limit);
  done(bad ? httpErrors.field('limit', serverMessages.invalidInteger) : undefined);
}

/** A kept answer, compressed once per answer and encoding when the client accepts it and it is worth it. */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: NewsPage) {
  reply.type('application/json; charset=utf-8').header('vary', 'Accept-Encoding');
  const encoding = acceptedEncoding(request);
  const compressed = encoding && page.body(encoding);
  if (!compressed) return reply.send(page.json);
  return reply.header('content-encoding', encoding).send(compressed);
}
