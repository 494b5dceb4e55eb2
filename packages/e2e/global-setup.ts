import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { freePort, startPostgres, startSmtpPeer, type PostgresCluster, type SmtpPeer } from '@hello/testkit';
import { serveMailbox } from './support/mailbox';
import { startProductServer, type ProductServer } from './support/product-server';
import { backends, envNames, type Backend } from './support/env';
import { addLargePdf, writeLargePdf } from './support/large-pdf';

/**
 * Starts everything the suite runs against: one SMTP peer (its mail readable by the workers through
 * a loopback endpoint), a throwaway PostgreSQL cluster, and one product server per backend, each
 * started with `npm start` on a fresh DATA_DIR. The URLs reach the workers as environment
 * variables (workers inherit the runner's environment). The returned function is the teardown.
 *
 * E2E_BACKENDS=sqlite (or postgres) starts only that one, for a quicker loop with --project.
 * E2E_KEEP_DATA=1 keeps the temp folder (data dirs and server logs) after the run.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const wanted = selectedBackends();
  const began = performance.now();
  const root = mkdtempSync(path.join(tmpdir(), 'hello-e2e-'));
  const cleanups: Array<() => Promise<void>> = [];
  const servers: ProductServer[] = [];

  let keep = Boolean(process.env.E2E_KEEP_DATA);
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => console.error('e2e teardown:', error));
    }
    reportServerErrors(servers);
    if (keep) console.log(`e2e: data and server logs kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  };

  try {
    const smtp: SmtpPeer = await startSmtpPeer();
    cleanups.push(() => smtp.stop());
    const mailbox = await serveMailbox(smtp);
    cleanups.push(() => mailbox.close());
    process.env[envNames.mailbox] = mailbox.url;

    const pg: Promise<PostgresCluster> | undefined = wanted.includes('postgres') ? startPostgres() : undefined;
    pg?.then(
      (cluster) => cleanups.push(() => cluster.stop()),
      () => undefined,
    );

    const common = {
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'warn',
      // One run sends every registration and login from 127.0.0.1; the default limits (20
      // registrations an hour, 10 failed logins per 15 min per address) would throttle the suite
      // itself. Generous limits keep it from testing the limiter, which the API suite covers.
      RATE_LIMIT_REGISTER: '1000/3600',
      RATE_LIMIT_LOGIN: '1000/3600',
      RATE_LIMIT_RESET: '1000/3600',
    };

    let largePdf: string | undefined;
    // One at a time: `npm start` builds what is not built yet, and two builds at once would
    // write the same dist folders.
    for (const backend of wanted) {
      const dataDir = path.join(root, `data-${backend}`);
      mkdirSync(dataDir);
      const env: Record<string, string> = { ...common, DATA_DIR: dataDir };
      if (backend === 'postgres') {
        const cluster = await pg!;
        env.DATABASE_URL = await cluster.createDatabase('hello_e2e');
      } else {
        env.DATABASE_URL = '';
      }
      const server = await startProductServer({
        name: backend,
        port: await freePort(),
        env,
        logFile: path.join(root, `server-${backend}.log`),
      });
      servers.push(server);
      cleanups.push(() => server.stop());
      process.env[envNames.url(backend)] = server.url;
      console.log(`e2e: ${backend} product server on ${server.url}`);
      // The benchmark's 5 MiB PDF, for the viewer's large-document test (support/large-pdf.ts).
      largePdf ??= await writeLargePdf(root);
      await addLargePdf(largePdf, env);
    }
    await pg;
    console.log(`e2e: peers and servers ready in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  } catch (error) {
    keep = true; // the logs say why
    await teardown();
    throw error;
  }
  return teardown;
}

function selectedBackends(): Backend[] {
  const raw = process.env.E2E_BACKENDS;
  if (!raw) return [...backends];
  const wanted = raw
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  const unknown = wanted.filter((b) => !(backends as readonly string[]).includes(b));
  if (unknown.length > 0) throw new Error(`E2E_BACKENDS: unknown ${unknown.join(', ')} (use ${backends.join(', ')})`);
  return wanted as Backend[];
}

/** Errors the servers logged during the run: a failing test's cause is often there. */
function reportServerErrors(servers: ProductServer[]): void {
  for (const server of servers) {
    let lines: string[];
    try {
      lines = readFileSync(server.logFile, 'utf8').split('\n');
    } catch {
      continue;
    }
    const errors = lines.filter((line) => /"level":\s*(50|60)\b|\b(ERROR|FATAL)\b/.test(line));
    if (errors.length > 0) {
      console.error(
        `e2e: the ${server.name} server logged ${errors.length} error(s):\n${errors.slice(0, 20).join('\n')}`,
      );
    }
  }
}
