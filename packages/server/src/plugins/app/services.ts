import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { createJwt } from '../../auth/jwt.js';
import { createPasswordHasher, type PasswordHasher } from '../../auth/passwords.js';
import { createSessionService, type SessionService } from '../../auth/sessions.js';
import { createTwoStepService, type TwoStepService } from '../../auth/two-step.js';
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
    twoStep: TwoStepService;
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
    const jwt = createJwt(config.secretKey);
    app.decorate(
      'sessions',
      createSessionService(database.db, jwt, {
        access: config.accessTokenLifetime,
        refresh: config.refreshTokenLifetime,
      }),
    );
    app.decorate('twoStep', createTwoStepService(database.db, jwt, config.secretKey));
  },
  { name: 'services' },
);
