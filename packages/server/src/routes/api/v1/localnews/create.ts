import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '@hello/contract';
import { httpErrors } from '../../../../http-errors.js';
import { createNewsItem, type StoredNewsItem } from '../../../../news/news-changes.js';
import { SessionEnded } from '../../../../repositories/sessions.js';
import { consumes } from '../../../../schemas/errors.js';
import { newsFormErrors, readNewsForm } from './news-form.js';
import { newsDeps } from './news-deps.js';
import { newsItemJson, newsItemMapper } from './news-item.js';
import type { NewsPageCache } from './news-page-cache.js';
import { createSchema, uploadBodyDoc } from './schemas.js';

/** POST /api/v1/localnews/new: a multipart body, streamed (the other news calls: index.ts). */
export default async function createNewsRoute(app: FastifyInstance, { kept }: { kept: NewsPageCache }) {
  app.post(apiPaths.localNewsNew, {
    schema: createSchema,
    onRequest: app.requireToken, // before the body is read: no credentials, no parsing
    config: {
      multipartStream: true,
      // The body is documented here but never validated by Ajv: the handler streams it.
      swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: uploadBodyDoc, consumes }, url }),
    },
    handler: createNewsHandler(app, newsItemMapper(app), kept),
  });
}

/**
 * POST /api/v1/localnews/new. An item is stored with all of its files or not at all: files are staged
 * while the body streams, then news/news-changes.ts commits the rows and publishes the files. The
 * answer's JSON, made as soon as the rows commit, is also the item's JSON in the kept news list.
 */
function createNewsHandler(app: FastifyInstance, toNewsItem: ReturnType<typeof newsItemMapper>, kept: NewsPageCache) {
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
      sessionId: principal.sessionId,
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
    const render = newsItemJson(reply, toNewsItem);
    const answer = (stored: StoredNewsItem, nowMs: number) =>
      render(
        {
          id: stored.id,
          title: item.title,
          content: item.content,
          created_at: item.createdAt,
          author: stored.author,
          files: files.map((f, i) => ({
            id: stored.fileIds[i]!,
            storage_name: f.storageName,
            original_name: f.originalName,
            size: f.size,
            content_type: f.contentType,
          })),
        },
        nowMs,
      );
    let json: string | undefined;
    const stored = await createNewsItem(newsDeps(app), item, files, (committed) => {
      const nowMs = Date.now();
      json = answer(committed, nowMs);
      kept.added({ position: { createdAt: item.createdAt, id: committed.id }, json }, nowMs, committed.revision);
    }).catch((error: unknown) => {
      // The session ended while the body streamed (a logout, the account deleted): nothing stored.
      throw error instanceof SessionEnded ? httpErrors.tokenNotValid('Token') : error;
    });
    return reply
      .code(201)
      .type('application/json; charset=utf-8')
      .send(json ?? answer(stored, Date.now()));
  };
}
