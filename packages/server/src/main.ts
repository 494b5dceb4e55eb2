import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';

/** The server process (started by server.ts): read the configuration, build the app, listen, and shut down gracefully. */
async function main() {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);

  // While shutting down, each answer closes its connection. Otherwise a keep-alive connection whose
  // request was in flight at SIGTERM stays open, idle, after its answer (Fastify keeps those 72 s and
  // closes only the connections idle at the moment close began), and close() waits past the grace
  // period: exit 1 instead of 0 (test/reliability/graceful-shutdown.test.ts).
  let closing = false;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // SIGTERM/SIGINT: stop accepting, let requests in flight finish, then close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    closing = true;
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`Hello all! is serving ${config.publicUrl} (listening on ${address})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Failed to start:', error);
  process.exit(1);
});
