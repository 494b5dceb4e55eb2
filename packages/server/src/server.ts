import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';

/** The process entry: read the configuration, build the app, listen, and shut down gracefully. */
async function main() {
  loadDotEnv();
  const config = loadConfig();
  const app = await buildApp(config);

  // SIGTERM/SIGINT: stop accepting, let requests in flight finish, then close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
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
