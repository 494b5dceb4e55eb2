import type { FastifyInstance } from 'fastify';
import { apiPaths, type NewsItem } from '@hello/contract';
import { listNews, type NewsItemWithFiles } from '../../../../repositories/news.js';
import { consumes } from '../../../../schemas/errors.js';
import { attachmentHandler } from './attachment.js';
import { createNewsHandler } from './create.js';
import { createSchema, fileSchema, listSchema, uploadBodyDoc } from './schemas.js';

/** GET /api/v1/localnews/, POST /api/v1/localnews/new, and the attachments' signed links. */
export default async function localnewsRoutes(app: FastifyInstance) {
  const fileUrl = (id: number) => `${apiPaths.localNewsFile.replace(':id', String(id))}?${app.urlSigner.sign(id)}`;
  const toNewsItem = (item: NewsItemWithFiles): NewsItem => ({
    ...item,
    files: item.files.map((f) => ({ id: f.id, name: f.original_name, size: f.size, content_type: f.content_type, url: fileUrl(f.id) })),
  });

  app.get(apiPaths.localNews, { schema: listSchema, preHandler: app.requireBearer }, async () => (await listNews(app.db)).map(toNewsItem));

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
