import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>): Config =>
  loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(32), ...env });
/** The problems loadConfig reports for `env`. */
function problems(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return expect.fail(`loaded ${JSON.stringify(env)}`);
}

const TEN_YEARS = 315_360_000;

describe('config: token lifetimes', () => {
  const names = ['ACCESS_TOKEN_LIFETIME', 'REFRESH_TOKEN_LIFETIME', 'RESET_TOKEN_LIFETIME'] as const;

  it.each(names)('%s refuses 0 and more than 10 years, by name', (name) => {
    const message = `${name}: expected a whole number of seconds from 1 to 315360000 (10 years)`;
    for (const value of ['0', '-1', String(TEN_YEARS + 1), '250000000000', '8640000000000', '1e20'])
      expect(new Set(problems({ [name]: value })), value).toEqual(new Set([message]));
  });

  it('takes 1 second and 10 years, and every expiry stays a date that compares right', () => {
    const shortest = load({ ACCESS_TOKEN_LIFETIME: '1', REFRESH_TOKEN_LIFETIME: '1', RESET_TOKEN_LIFETIME: '1' });
    expect([shortest.accessTokenLifetime, shortest.refreshTokenLifetime, shortest.resetTokenLifetime]).toEqual([
      1, 1, 1,
    ]);
    const longest = load(Object.fromEntries(names.map((name) => [name, String(TEN_YEARS)])));
    expect(longest.refreshTokenLifetime).toBe(TEN_YEARS);
    expect(new Date(Date.now() + TEN_YEARS * 1000).toISOString()).toMatch(/^\d{4}-/);
  });
});

describe('config: PUBLIC_URL', () => {
  it.each([
    ['no scheme (read as scheme localhost:)', 'localhost:8000'],
    ['ftp', 'ftp://hello.example'],
    ['javascript', 'javascript:alert(1)'],
    ['mailto', 'mailto:a@hello.example'],
    ['a query', 'https://hello.example/?a=1'],
    ['an empty query', 'https://hello.example?'],
    ['a fragment', 'https://hello.example/#top'],
    ['an empty fragment', 'https://hello.example#'],
    ['a user and password', 'https://user:pw@hello.example'],
    ['no host', 'http://'],
    ['a space', 'https://hello .example'],
    ['a newline', 'https://hello.example\n/x'],
  ])('refuses %s, naming PUBLIC_URL', (_what, value) => {
    const found = problems({ PUBLIC_URL: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^PUBLIC_URL: .*expected an http:\/\/ or https:\/\/ origin/);
    expect(found[0]).not.toContain('pw');
  });

  it('takes an http or https origin, or one with a path prefix (links append to it)', () => {
    expect(load({ PUBLIC_URL: 'https://hello.example' }).publicUrl).toBe('https://hello.example');
    expect(load({ PUBLIC_URL: 'http://127.0.0.1:8000/' }).publicUrl).toBe('http://127.0.0.1:8000');
    expect(load({ PUBLIC_URL: 'HTTPS://[::1]:8443' }).publicUrl).toBe('HTTPS://[::1]:8443');
    expect(load({ PUBLIC_URL: 'https://hello.example/app/' }).publicUrl).toBe('https://hello.example/app');
    expect(load({}).publicUrl).toBe('http://127.0.0.1:8000');
  });
});
