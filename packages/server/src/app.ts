import Fastify from 'fastify';
import { answerClientError } from './client-errors.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loggerOptions } from './logger.js';
import type { OutboxOptions } from './mail/outbox-worker.js';
import afterAnswer from './plugins/app/after-answer.js';
import auth from './plugins/app/auth.js';
import compression from './plugins/app/compression.js';
import errors, { frameworkErrors } from './plugins/app/errors.js';
import mail from './plugins/app/mail.js';
import metrics from './plugins/app/metrics.js';
import openapi from './plugins/app/openapi.js';
import rateLimit from './plugins/app/rate-limit.js';
import retention from './plugins/app/retention.js';
import routeRegistry from './plugins/app/route-registry.js';
import securityHeaders from './plugins/app/security-headers.js';
import services from './plugins/app/services.js';
import storage from './plugins/app/storage.js';
import webApp from './plugins/app/web-app.js';
import type { RetentionOptions } from './retention/retention-job.js';
import { requestLoggerFactory } from './request-logger.js';
import routes from './routes/index.js';
import opsRoutes from './routes/ops/index.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { checkStoreIdentity, refuseNewSqliteOnBoundDataDir } from './storage/store-identity.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles now every route schema no request has used yet (schema-compilers.ts); throws if one is broken. */
    compileSchemas(): void;
  }
}

export interface BuildOptions {
  /** An already open database (tests share one per suite); otherwise opened from the config. */
  database?: DatabaseHandle;
  /** Mail outbox timing (tests use short back-off). */
  outbox?: Partial<OutboxOptions>;
  /** Retention job timing and batch size (tests run it when they choose, in small batches). */
  retention?: Partial<RetentionOptions>;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

const withStream = (logger: ReturnType<typeof loggerOptions>, stream: BuildOptions['logStream']) =>
  logger && stream ? { ...(logger as object), stream } : logger;

/**
 * Builds the whole product as one Fastify instance: the API, the PDFs and the web app.
 * It does not listen: `server.ts` does, and tests use `app.inject()`.
 */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  if (!options.database && !config.databaseUrl) refuseNewSqliteOnBoundDataDir(config.dataDir);
  const database = options.database ?? openDatabase(config);
  try {
    // Without the 5 s bound of request queries on PostgreSQL (db/database.ts).
    await database.withoutQueryTimeout((db) => migrateToLatest(db));
    await checkStoreIdentity(database.db, config.dataDir); // before the start-up sweep deletes a file
  } catch (error) {
    if (!options.database) await database.close();
    throw error;
  }

  const schemas = lazySchemaCompilers();
  const app = Fastify({
    logger: withStream(loggerOptions(config), options.logStream),
    childLoggerFactory: requestLoggerFactory(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: config.maxBodyBytes,
    requestIdHeader: false,
    ajv: { customOptions: { allErrors: true } },
    // Each route's schemas are compiled on its first use rather than all at start-up.
    schemaController: {
      compilersFactory: { buildValidator: schemas.buildValidator, buildSerializer: schemas.buildSerializer },
    },
    routerOptions: { maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler: answerClientError,
    // First start seeds the demo PDFs inside a plugin; on a loaded machine that outlasts the 10 s default.
    pluginTimeout: 60_000,
  });
  if (!options.database) app.addHook('onClose', () => database.close());
  app.decorate('compileSchemas', schemas.compileAll);

  await app.register(routeRegistry);
  await app.register(errors);
  await app.register(services, { config, database });
  await app.register(metrics); // before the routes: its onResponse hook counts every answer
  await app.register(auth);
  await app.register(afterAnswer);
  await app.register(mail, { outbox: options.outbox });
  await app.register(rateLimit);
  await app.register(retention, { retention: options.retention });
  await app.register(securityHeaders);
  await app.register(compression); // before the routes: it adds its hooks to each route as it is added
  await app.register(storage);
  await app.register(openapi); // before the routes: it collects them as they are added
  await app.register(routes);
  await app.register(opsRoutes);
  await app.register(webApp);
  return app;
}
