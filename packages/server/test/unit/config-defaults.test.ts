import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/**
 * The contract's defaults (README, "Configuration", and .env.example) with nothing
 * but DATA_DIR set. The numbers are written out from the contract, never taken from the code, so a
 * changed default fails here.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-config-defaults-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('config: the contract defaults', () => {
  it('listens on 127.0.0.1:8000, SQLite and mail files in DATA_DIR, links to http://HOST:PORT', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8000);
    expect(config.dataDir).toBe(path.resolve(dataDir));
    expect(config.databaseUrl).toBeUndefined(); // SQLite at DATA_DIR/app.db
    expect(config.smtpUrl).toBeUndefined(); // the outbox folder DATA_DIR/mail/
    expect(config.mailFrom).toBe('no-reply@localhost');
    expect(config.publicUrl).toBe('http://127.0.0.1:8000');
    expect(config.trustProxy).toBe(false); // X-Forwarded-For ignored
  });

  it('PUBLIC_URL follows HOST and PORT when unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir, HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://0.0.0.0:9000');
  });

  it('DATA_DIR is ./data', () => {
    // SECRET_KEY given, so that nothing is written into ./data.
    expect(loadConfig({ SECRET_KEY: 'k'.repeat(32) }).dataDir).toBe(path.resolve('./data'));
  });

  it('SECRET_KEY is generated once and kept in DATA_DIR', () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'hello-config-secret-'));
    try {
      const file = path.join(fresh, 'secret_key');
      expect(existsSync(file)).toBe(false);
      const first = loadConfig({ DATA_DIR: fresh }).secretKey;
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(file, 'utf8').trim()).toBe(first);
      expect(loadConfig({ DATA_DIR: fresh }).secretKey).toBe(first);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('token lifetimes 300 s (access), 1209600 s (refresh, 14 days), 3600 s (password reset)', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.accessTokenLifetime).toBe(300);
    expect(config.refreshTokenLifetime).toBe(1_209_600);
    expect(config.resetTokenLifetime).toBe(3600);
  });

  it('10 failed logins per 15 min, 5 resets per hour, 20 registrations per hour', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).rateLimits).toEqual({
      login: { max: 10, windowSeconds: 900 },
      reset: { max: 5, windowSeconds: 3600 },
      register: { max: 20, windowSeconds: 3600 },
    });
  });

  it('a file at most 10 MiB, at most 10 files an item, any other body at most 1 MiB', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.maxUploadFileBytes).toBe(10_485_760);
    expect(config.maxUploadFiles).toBe(10);
    expect(config.maxBodyBytes).toBe(1_048_576);
  });

  it('retention of 30 days; /metrics off (no METRICS_TOKEN)', () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.retentionDays).toBe(30);
    expect(config.metricsToken).toBeUndefined();
  });
});
