import type { FastifyInstance } from 'fastify';
import requestBodies from '../plugins/app/request-bodies.js';
import downloads from './downloads/index.js';
import passwordReset from './api/password-reset/index.js';
import createNews from './api/v1/localnews/create.js';
import editNews from './api/v1/localnews/edit.js';
import localNews from './api/v1/localnews/index.js';
import { createNewsPageCache } from './api/v1/localnews/news-page-cache.js';
import restAuth from './api/v1/rest-auth/index.js';
import token from './api/v1/token/index.js';
import user from './api/v1/user/index.js';
import users from './api/v1/users/index.js';

/** Every route of the API. Each folder is its URL prefix. */
export default async function routes(app: FastifyInstance) {
  // The news list's kept answers: read by the list's calls, and told of an item as soon as it is posted.
  const kept = createNewsPageCache(app.db, app.urlSigner.expiry);
  // The reads served most (and the calls without a body), without a body parser's per-request hooks
  // (plugins/app/request-bodies.ts).
  await app.register(localNews, { kept });
  await app.register(downloads);

  // The calls that take a body (and the profile's GET, which shares its module with the profile's POST).
  await app.register(async function callsWithBodies(scope: FastifyInstance) {
    await scope.register(requestBodies);
    await scope.register(token);
    await scope.register(restAuth);
    await scope.register(users);
    await scope.register(user);
    await scope.register(passwordReset);
    await scope.register(createNews, { kept });
    await scope.register(editNews);
  });
}
