import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths, serverMessages } from '@hello/contract';
import { ApiError, httpErrors } from '../../../../http-errors.js';
import { editNewsItemWithFiles } from '../../../../news/news-changes.js';
import { findNewsItem, NewsEditRefused } from '../../../../repositories/news.js';
import { SessionEnded } from '../../../../repositories/sessions.js';
import { consumes } from '../../../../schemas/errors.js';
import { withIdParams } from '../../../parse-id.js';
import { authorsItem, requireAuthor } from './author-check.js';
import { fileId, newsFormErrors, readNewsForm } from './news-form.js';
import { newsDeps } from './news-deps.js';
import { newsItemMapper } from './news-item.js';
import { editBodyDoc, editSchema } from './schemas.js';

/** PATCH /api/v1/localnews/{id}/: the author's edit, JSON or multipart (with files to add). */
export default async function editNewsRoute(app: FastifyInstance) {
  const toNewsItem = newsItemMapper(app);
  app.patch(withIdParams(apiPaths.localNewsItem), {
    schema: editSchema,
    // Before the body is read or parsed: no credentials or not the author, no parsing.
    onRequest: [app.requireBearer, requireAuthor(app)],
    config: {
      multipartStream: true,
      // The body is documented here but never validated by Ajv: the handler reads it (news-form.ts).
      swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: editBodyDoc, consumes }, url }),
    },
    handler: async function editNews(request: FastifyRequest, reply: FastifyReply) {
      const { id, authorId } = authorsItem(request);
      const form = await readNewsForm(request, app.uploads, app.config);
      const errors = newsFormErrors(form, true);
      if (Object.keys(errors).length > 0) {
        await app.uploads.discard(form.files.map((f) => f.storageName));
        throw httpErrors.fields(errors);
      }
      try {
        await editNewsItemWithFiles(newsDeps(app), id, authorId, {
          sessionId: request.principal!.sessionId,
          ...(typeof form.title === 'string' && { title: form.title }),
          ...(typeof form.content === 'string' && { content: form.content }),
          // A list of ids by now: newsFormErrors refused null, no list and anything but ids.
          removeFileIds: (form.removeFiles as unknown[]).map((value) => fileId(value)!),
          addFiles: form.files.map((f) => ({
            storageName: f.storageName,
            originalName: f.name,
            size: f.size,
            contentType: f.contentType,
          })),
          maxFiles: app.config.maxUploadFiles || Infinity,
        });
      } catch (error) {
        if (error instanceof NewsEditRefused) throw refusal(error, app.config.maxUploadFiles);
        // The session ended while the body streamed (a logout): nothing of the edit stays.
        throw error instanceof SessionEnded ? httpErrors.tokenNotValid('Bearer') : error;
      }
      const item = await findNewsItem(app.db, id);
      if (!item) throw httpErrors.notFound(); // deleted right after the edit
      return reply.send(toNewsItem(item));
    },
  });
}

/** The answer to an edit the repository refused (nothing of it was stored). */
function refusal(error: NewsEditRefused, maxFiles: number): ApiError {
  switch (error.reason) {
    case 'gone':
      return httpErrors.notFound();
    case 'unknown-files':
      return httpErrors.fields({ remove_files: error.fileIds.map((id) => serverMessages.noSuchFile(String(id))) });
    case 'no-files-left':
      return httpErrors.field('files', serverMessages.keepOneFile);
    case 'too-many-files':
      return httpErrors.field('files', serverMessages.tooManyFiles(maxFiles));
  }
}
