import type { FastifyInstance } from 'fastify';
import downloads from './downloads/index.js';
import passwordReset from './api/password-reset/index.js';
import localNews from './api/v1/localnews/index.js';
import restAuth from './api/v1/rest-auth/index.js';
import token from './api/v1/token/index.js';
import user from './api/v1/user/index.js';
import users from './api/v1/users/index.js';

/** Every route of CONTRACT.md section 2. Each folder is its URL prefix. */
export default async function routes(app: FastifyInstance) {
  await app.register(token);
  await app.register(restAuth);
  await app.register(users);
  await app.register(user);
  await app.register(passwordReset);
  await app.register(localNews);
  await app.register(downloads);
}
