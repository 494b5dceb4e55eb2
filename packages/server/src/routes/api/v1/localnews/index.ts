import type { FastifyInstance } from 'fastify';
import { apiPaths, type NewsItem } from '@hello/contract';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';
import { consumes } from '../../../../schemas/errors.js';
import { attachmentHandler } from './attachment.js';
import { createNewsHandler } from './create.js';
import { createNewsListCache } from './news-list-cache.js';
import { createSchema, fileSchema, listSchema, uploadBodyDoc } from './schemas.js';

/** GET /api/v1/localnews/, POST /api/v1/localnews/new, and the attachments' signed links. */
export default async function localnewsRoutes(app: FastifyInstance) {
  const fileUrl = (id: number, nowMs?: number) => `${apiPaths.localNewsFile.replace(':id', String(id))}?${app.urlSigner.sign(id, nowMs)}`;
  const toNewsItem = (item: NewsItemWithFiles, nowMs?: number): NewsItem => ({
    ...item,
    files: item.files.map((f) => ({ id: f.id, name: f.original_name, size: f.size, content_type: f.content_type, url: fileUrl(f.id, nowMs) })),
  });

  const newsListBody = createNewsListCache(app.db, app.urlSigner.expiry);
  app.get(apiPaths.localNews, { schema: listSchema, preHandler: app.requireBearer }, async (request, reply) => {
    // Serialized by the route's response schema (fast-json-stringify) when rebuilt, then sent as bytes.
    const render = (items: NewsItemWithFiles[], nowMs: number) => reply.serialize(items.map((item) => toNewsItem(item, nowMs))) as string;
    const body = await newsListBody(render, request.principal!.newsRevision);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.post(apiPaths.localNewsNew, {
    schema: createSchema,
    preHandler: app.requireToken,
    config: {
      multipartStream: true,
      // The body is documented here but never validated by Ajv: the handler streams it.
      swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: uploadBodyDoc, consumes }, url }),
    },
    handler: createNewsHandler(app, toNewsItem),
  });

  // A plain link (no Authorization header): the signature is the permission.
  app.route({ method: ['GET', 'HEAD'], url: apiPaths.localNewsFile, schema: fileSchema, handler: attachmentHandler(app) });
}
