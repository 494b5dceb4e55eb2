import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@hello/contract';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';
import { attachmentHandler } from './attachment.js';
import { newsItemMapper } from './news-item.js';
import { createNewsListCache } from './news-list-cache.js';
import { fileSchema, listSchema } from './schemas.js';

/** GET /api/v1/localnews/ and the attachments' signed links (POST /api/v1/localnews/new: create.ts). */
export default async function localnewsRoutes(app: FastifyInstance) {
  const toNewsItem = newsItemMapper(app);

  const newsListBody = createNewsListCache(app.db, app.urlSigner.expiry);
  app.get(apiPaths.localNews, { schema: listSchema, preHandler: app.requireBearer }, async (request, reply) => {
    // Serialized by the route's response schema (fast-json-stringify) when rebuilt, then sent as bytes.
    const render = (items: NewsItemWithFiles[], nowMs: number) => reply.serialize(items.map((item) => toNewsItem(item, nowMs))) as string;
    const body = await newsListBody(render, request.principal!.newsRevision);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  // A plain link (no Authorization header): the signature is the permission.
  app.route({ method: ['GET', 'HEAD'], url: apiPaths.localNewsFile, schema: fileSchema, handler: attachmentHandler(app) });
}
