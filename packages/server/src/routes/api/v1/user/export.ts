import type { FastifyInstance } from 'fastify';
import { accountExport, apiPaths, type AccountExport } from '@hello/contract';
import { listNewsOfAuthor } from '../../../../repositories/news.js';
import { toProfile } from '../../../../repositories/users.js';
import { unauthorized, unavailable } from '../../../../schemas/errors.js';
import { responseHeaders } from '../../../../schemas/headers.js';
import { attachmentDisposition } from '../../../../storage/file-names.js';
import { newsItemMapper } from '../localnews/news-item.js';
import { currentUser } from '../../../current-user.js';
import { sessionsOf } from './sessions.js';

/** The download of the caller's data: the profile, the live sessions, the news items with their files. */
export default async function exportRoutes(app: FastifyInstance) {
  const toNewsItem = newsItemMapper(app);

  app.get<{ Reply: AccountExport }>(
    apiPaths.exportAccount,
    {
      onRequest: app.requireBearer,
      schema: {
        tags: ['account'],
        summary:
          "The caller's data as one JSON download: profile, sessions, news items with their files' metadata and links",
        operationId: 'exportAccount',
        security: [{ bearer: [] }],
        response: {
          200: { ...accountExport, headers: { 'Content-Disposition': responseHeaders.contentDisposition } },
          401: unauthorized,
          503: unavailable,
        },
      },
    },
    async (request, reply) => {
      const user = await currentUser(app, request);
      const { userId, sessionId } = request.principal!;
      const [sessions, items] = await Promise.all([
        sessionsOf(app, userId, sessionId),
        listNewsOfAuthor(app.db, userId),
      ]);
      reply.header('content-disposition', attachmentDisposition('account-export.json'));
      reply.header('cache-control', 'no-store');
      return {
        exported_at: new Date().toISOString(),
        profile: toProfile(user),
        sessions,
        news_items: items.map((item) => toNewsItem(item)),
      };
    },
  );
}
