import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createJwt } from '../../auth/jwt.js';
import { createPasswordHasher, type PasswordHasher } from '../../auth/passwords.js';
import { createSessionService, type SessionService } from '../../auth/sessions.js';
import type { Config } from '../../config.js';
import type { DatabaseHandle, Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Kysely<Database>;
    dialect: Dialect;
    sessions: SessionService;
    passwords: PasswordHasher;
  }
}

/** The app's shared services, decorated once so every route reaches them as `app.x`. */
export default fp(
  async function services(app: FastifyInstance, opts: { config: Config; database: DatabaseHandle }) {
    const { config, database } = opts;
    app.decorate('config', config);
    app.decorate('db', database.db);
    app.decorate('dialect', database.dialect);
    app.decorate('passwords', createPasswordHasher(config.argon2));
    app.decorate(
      'sessions',
      createSessionService(database.db, createJwt(config.secretKey), {
        access: config.accessTokenLifetime,
        refresh: config.refreshTokenLifetime,
      }),
    );
  },
  { name: 'services' },
);
