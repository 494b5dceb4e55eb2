import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths, type NewsItem } from '@hello/contract';
import { httpErrors } from '../../../../http-errors.js';
import { createNewsItem } from '../../../../news/news-changes.js';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';
import { consumes } from '../../../../schemas/errors.js';
import { newsFormErrors, readNewsForm } from './news-form.js';
import { newsDeps } from './news-deps.js';
import { newsItemMapper } from './news-item.js';
import { createSchema, uploadBodyDoc } from './schemas.js';

/** POST /api/v1/localnews/new: a multipart body, streamed (the other news calls: index.ts). */
export default async function createNewsRoute(app: FastifyInstance) {
  app.post(apiPaths.localNewsNew, {
    schema: createSchema,
    preHandler: app.requireToken,
    config: {
      multipartStream: true,
      // The body is documented here but never validated by Ajv: the handler streams it.
      swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: uploadBodyDoc, consumes }, url }),
    },
    handler: createNewsHandler(app, newsItemMapper(app)),
  });
}

/**
 * POST /api/v1/localnews/new. An item is stored with all of its files or not at all: files are staged
 * while the body streams, then news/news-changes.ts commits the rows and publishes the files.
 */
function createNewsHandler(app: FastifyInstance, toNewsItem: (item: NewsItemWithFiles) => NewsItem) {
  return async function createNews(request: FastifyRequest, reply: FastifyReply) {
    const form = await readNewsForm(request, app.uploads, app.config);
    const errors = newsFormErrors(form);
    if (Object.keys(errors).length > 0) {
      await app.uploads.discard(form.files.map((f) => f.storageName));
      throw httpErrors.fields(errors);
    }
    const principal = request.principal!;
    const item = {
      authorId: principal.userId,
      title: String(form.title),
      content: String(form.content),
      createdAt: new Date().toISOString(),
    };
    const files = form.files.map((f) => ({
      storageName: f.storageName,
      originalName: f.name,
      size: f.size,
      contentType: f.contentType,
    }));
    const stored = await createNewsItem(newsDeps(app), item, files);
    return reply.code(201).send(
      toNewsItem({
        id: stored.id,
        title: item.title,
        content: item.content,
        created_at: item.createdAt,
        author: principal.email,
        files: files.map((f, i) => ({
          id: stored.fileIds[i]!,
          original_name: f.originalName,
          size: f.size,
          content_type: f.contentType,
        })),
      }),
    );
  };
}
