import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { startHangingSmtpPeer, type HangingSmtpPeer } from '../helpers/hanging-smtp.js';
import { call, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * SIGTERM while a mail is being handed to an SMTP server that never answers (its timeouts would hold
 * the delivery for up to 50 s, src/mail/transport.ts): the process still exits 0 within its grace
 * period (10 s, src/main.ts), and the mail stays in the outbox, undelivered and not given up, to be sent
 * once its claim ends. SQLite: the database is not what this is about.
 */
const GRACE_MS = 10_000;

describe('graceful shutdown during a hanging SMTP delivery', () => {
  let server: SpawnedServer | undefined;
  let peer: HangingSmtpPeer | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await server?.kill();
    await peer?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 0 well within the grace, and the mail stays pending', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-sigterm-smtp-'));
    peer = await startHangingSmtpPeer();
    server = await spawnServer({ dataDir, env: { LOG_LEVEL: 'info', SMTP_URL: peer.url, RATE_LIMIT_LOGIN: '0' } });
    const json = { 'content-type': 'application/json' };
    const email = 'hanging-smtp@example.com';
    const password = 'Shutdown-Password-2026';
    const reg = await call(`${server.url}${apiPaths.registration}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password1: password, password2: password }),
    });
    expect(reg.status).toBe(201);
    const reset = await call(`${server.url}${apiPaths.passwordReset}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, reset_new_password_path: '/resetnewpassword' }),
    });
    expect(reset.status).toBe(200);
    await expect.poll(() => peer!.hanging, { timeout: 15_000 }).toBe(1); // the delivery is in flight

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited();
    const tookMs = Date.now() - signalled;
    const log = server.output();
    expect(exit, log.split('\n').slice(-15).join('\n')).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(GRACE_MS - 3000);
    expect(log).toContain('abandoned at shutdown');
    expect(log).not.toMatch(/\n\s+at /); // no stack
    expect(log).not.toMatch(/token=(?!\[redacted\])/);

    const db = new SQLite(path.join(dataDir, 'app.db'), { readonly: true });
    try {
      const mails = db.prepare('select sent_at, failed_at, next_attempt_at from mail_outbox').all() as {
        sent_at: string | null;
        failed_at: string | null;
        next_attempt_at: string;
      }[];
      expect(mails.length).toBeGreaterThanOrEqual(1);
      for (const mail of mails) expect(mail).toMatchObject({ sent_at: null, failed_at: null });
      // At least the one in flight is under its claim, sent once the lease ends.
      expect(mails.some((mail) => Date.parse(mail.next_attempt_at) > Date.now() + 60_000)).toBe(true);
    } finally {
      db.close();
    }
    console.info(`shutdown-hanging-smtp: exit 0 after ${tookMs} ms with a delivery hanging`);
  }, 90_000);
});
