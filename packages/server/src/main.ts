import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';
import { logDestination } from './log-destination.js';

/** The server process (started by server.ts): read the configuration, build the app, listen, and shut down gracefully. */
async function main() {
  loadDotEnv();
  const config = loadConfig();
  // At a terminal, readable lines; elsewhere JSON (log-destination.ts).
  const logStream = config.logLevel === 'silent' ? undefined : await logDestination(process.stdout, config.env);
  const app = await buildApp(config, { logStream });

  // SIGTERM/SIGINT: stop accepting, let requests in flight finish, then close the database. A mail
  // delivery in flight is waited for 3 s at most (mail/outbox-worker.ts, stopWaitMs), well within the grace.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    // close() ends the keep-alive connections idle at that moment; one whose answer was still being
    // made or sent (a login, a large PDF) would stay open after it, idle, for Fastify's 72 s, and keep
    // close() waiting past the grace period: exit 1 instead of 0 (test/reliability/
    // graceful-shutdown.test.ts). So each is closed as soon as it falls idle. Requests that still
    // arrive on one get Fastify's 503 with `Connection: close`.
    const closeWhenIdle = setInterval(() => app.server.closeIdleConnections(), 50).unref();
    try {
      await app.close();
    } finally {
      clearInterval(closeWhenIdle);
    }
  });

  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`Hello all! is serving ${config.publicUrl} (listening on ${address})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Failed to start:', error);
  process.exit(1);
});
