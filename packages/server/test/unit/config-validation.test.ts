import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../src/config.js';
import { smtpOptions } from '../../src/mail/transport.js';

/**
 * Every variable is checked at boot and a bad one is refused by name, all the problems at once, and a
 * message never shows a password (or a user) of a URL: it goes to a terminal and into logs.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(32) };

const load = (env: Record<string, string>): Config => loadConfig({ ...base, ...env });
/** The ConfigError loadConfig throws for `env`, or a failure when it loads. */
function refusal(env: Record<string, string>): ConfigError {
  let config: Config | undefined;
  try {
    config = load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  expect.fail(`loaded: ${JSON.stringify({ ...config, trustProxy: String(config.trustProxy) })}`);
}

describe('config: SMTP_URL', () => {
  it.each([
    ['an unescaped / in the password', 'smtp://mailer:Tr0ub4dor/3@smtp.example.com:587', ['mailer', 'Tr0ub4dor']],
    ['a port that is not a number', 'smtp://mailuser:s3cretpw@host:25x', ['mailuser', 's3cretpw']],
    ['an unescaped # in the password', 'smtp://mailuser:s3c#retpw@host:25', ['mailuser', 's3c', 'retpw']],
    ['an unescaped ? in the password', 'smtp://mailuser:s3c?retpw@host:25', ['mailuser', 's3c', 'retpw']],
    ['a numeric password with an unescaped /', 'smtp://mailuser:1234/5678@host:25', ['mailuser', '1234', '5678']],
    ['a numeric password with an unescaped #', 'smtp://mailuser:1234#5678@host:25', ['mailuser', '1234', '5678']],
    ['a port out of range', 'smtps://mailuser:s3cretpw@host:65536', ['mailuser', 's3cretpw']],
    ['port 0', 'smtp://mailuser:s3cretpw@host:0', ['mailuser', 's3cretpw']],
    ['no host', 'smtp://mailuser:s3cretpw@:25', ['mailuser', 's3cretpw']],
    ['a malformed %-escape', 'smtp://mailuser:s3cret%E0%A4pw@host:25', ['mailuser', 's3cret']],
    ['another scheme', 'http://mailuser:s3cretpw@host:25', ['mailuser', 's3cretpw']],
  ])('refuses %s, naming SMTP_URL and showing neither password nor user', (_what, value, secrets) => {
    const { message, problems } = refusal({ SMTP_URL: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SMTP_URL: /);
    for (const secret of secrets) expect(message).not.toContain(secret);
  });

  it('says how to fix an unescaped character in the password', () => {
    expect(refusal({ SMTP_URL: 'smtp://mailer:Tr0ub4dor/3@smtp.example.com:587' }).problems).toEqual([
      'SMTP_URL: not a valid smtp:// or smtps:// URL (a password with / ? # @ must be percent-encoded)',
    ]);
  });

  it.each([
    ['smtp://user:p%2Fss@host:587', { host: 'host', port: 587, secure: false, auth: { user: 'user', pass: 'p/ss' } }],
    ['smtps://host', { host: 'host', secure: true }],
    ['smtp://127.0.0.1:2525', { host: '127.0.0.1', port: 2525, secure: false }],
    [
      'smtp://u%40x.test:a%3Ab%23c@[::1]:25/',
      { host: '::1', port: 25, secure: false, auth: { user: 'u@x.test', pass: 'a:b#c' } },
    ],
    ['smtp://u:pa:ss@host:25', { host: 'host', port: 25, secure: false, auth: { user: 'u', pass: 'pa:ss' } }],
    [
      'smtp://host:25?tls.rejectUnauthorized=false&name=me.test',
      { host: 'host', port: 25, secure: false, name: 'me.test', tls: { rejectUnauthorized: false } },
    ],
  ])('loads %s and hands nodemailer its parts, decoded', (value, parts) => {
    expect(load({ SMTP_URL: value }).smtpUrl).toBe(value);
    const options = smtpOptions(value);
    expect(options).toMatchObject(parts);
    expect(options).not.toHaveProperty('url');
    if (!('auth' in parts)) expect(options).not.toHaveProperty('auth');
    if (!('port' in parts)) expect(options).not.toHaveProperty('port');
  });

  it('keeps the short timeouts (nodemailer drops them when given a url)', () => {
    expect(smtpOptions('smtp://host:25')).toMatchObject({ connectionTimeout: 10_000, socketTimeout: 30_000 });
  });
});

describe('config: DATABASE_URL', () => {
  it.each([
    ['an unescaped / in the password', 'postgres://app:Super/Secret@127.0.0.1:5432/db', ['Super', 'Secret']],
    ['an unescaped # in the password', 'postgres://app:Super#Secret@127.0.0.1:5432/db', ['Super', 'Secret']],
    ['a numeric password with an unescaped /', 'postgres://app:1234/5678@127.0.0.1:5432/db', ['1234', '5678']],
    ['a port that is not a number', 'postgresql://app:SuperSecret@127.0.0.1:54x/db', ['SuperSecret']],
    ['another scheme', 'mysql://app:SuperSecret@127.0.0.1/db', ['SuperSecret']],
    ['a numeric password with an unescaped #', 'postgres://app:1234#5678@127.0.0.1/db', ['1234', '5678']],
    ['a numeric password with an unescaped ?', 'postgres://app:1234?5678@127.0.0.1/db', ['1234', '5678']],
    ['a malformed %-escape in the password', 'postgres://app:Super%C3%28Secret@127.0.0.1/db', ['Super', 'Secret']],
    [
      'an sslrootcert file that is missing',
      'postgres://app:SuperSecret@db.example/db?sslrootcert=/nonexistent/ca.pem',
      ['SuperSecret'],
    ],
  ])('refuses %s, naming DATABASE_URL and without the password', (_what, value, secrets) => {
    const { message, problems } = refusal({ DATABASE_URL: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^DATABASE_URL: /);
    for (const secret of secrets) expect(message).not.toContain(secret);
  });

  it.each([
    ['postgres://app:Super%C3%28Secret@127.0.0.1/db', 'a malformed %-escape (write a % itself as %25)'],
    ['postgres://app@127.0.0.1/d%C3%28b', 'a malformed %-escape (write a % itself as %25)'],
    [
      'postgres://app:123?456@127.0.0.1/db',
      'not a valid postgres:// URL (a password with / ? # @ must be percent-encoded)',
    ],
    [
      'postgres://app@db.example/db?sslrootcert=/nonexistent/ca.pem',
      'a file that sslcert, sslkey or sslrootcert names cannot be read (ENOENT)',
    ],
  ])('says what is wrong with %s', (value, problem) => {
    expect(refusal({ DATABASE_URL: value }).problems).toEqual([`DATABASE_URL: ${problem}`]);
  });

  it('says how to fix an unescaped character in the password', () => {
    expect(refusal({ DATABASE_URL: 'postgres://app:Super/Secret@127.0.0.1:5432/db' }).problems).toEqual([
      'DATABASE_URL: not a valid postgres:// URL (a password with / ? # @ must be percent-encoded)',
    ]);
  });

  it.each([
    'postgres://app:Super%2FSecret@127.0.0.1:5432/db',
    'postgresql://app@localhost/db?sslmode=require',
    'postgres://app:pw@/db?host=/var/run/postgresql',
    'postgres://[::1]:5432/db',
  ])('loads %s', (value) => {
    expect(load({ DATABASE_URL: value }).databaseUrl).toBe(value);
  });
});

describe('config: TRUST_PROXY', () => {
  it.each(['yes', '10.0.0.1,', '10.0.0.1,nope', '10.0.0.0/33', '-1', 'TRUE'])(
    'refuses %s, naming TRUST_PROXY',
    (value) => {
      const { problems } = refusal({ TRUST_PROXY: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^TRUST_PROXY: /);
    },
  );

  it('says what it expects', () => {
    expect(refusal({ TRUST_PROXY: 'yes' }).problems).toEqual([
      'TRUST_PROXY: expected a number of proxy hops (e.g. 1), true, false, or proxy addresses/CIDRs separated by commas (e.g. 10.0.0.1,10.0.0.0/8; loopback, linklocal and uniquelocal name ranges): invalid IP address: yes',
    ]);
  });

  it('trusts a number of hops, everything, or addresses', () => {
    const one = load({ TRUST_PROXY: '1' }).trustProxy as (address: string, hop: number) => boolean;
    expect([one('10.0.0.1', 0), one('10.0.0.1', 1)]).toEqual([true, false]);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({}).trustProxy).toBe(false);
    for (const list of [
      '10.0.0.1,10.0.0.0/8',
      '10.0.0.1, 10.0.0.0/8',
      'loopback',
      'loopback,uniquelocal',
      '::1',
      'fd00::/8',
    ])
      expect(load({ TRUST_PROXY: list }).trustProxy).toBe(list);
  });
});

describe('config: rate limits', () => {
  it.each(['RATE_LIMIT_LOGIN', 'RATE_LIMIT_RESET', 'RATE_LIMIT_REGISTER'])(
    'refuses a window of 0 seconds in %s',
    (name) => {
      expect(refusal({ [name]: '3/0' }).problems).toEqual([
        `${name}: the window must be at least 1 second: expected N or N/SECONDS, e.g. 10/900 (0 alone turns the limit off)`,
      ]);
    },
  );

  it('refuses what is not N or N/SECONDS', () => {
    expect(refusal({ RATE_LIMIT_LOGIN: '3/x' }).problems).toEqual([
      'RATE_LIMIT_LOGIN: expected N or N/SECONDS, e.g. 10/900 (0 alone turns the limit off)',
    ]);
  });

  it('loads 0 (off), N and N/SECONDS', () => {
    expect(load({ RATE_LIMIT_LOGIN: '0' }).rateLimits.login).toEqual({ max: 0, windowSeconds: 900 });
    expect(load({ RATE_LIMIT_LOGIN: '5/60' }).rateLimits.login).toEqual({ max: 5, windowSeconds: 60 });
    expect(load({ RATE_LIMIT_RESET: '7' }).rateLimits.reset).toEqual({ max: 7, windowSeconds: 3600 });
    expect(load({ RATE_LIMIT_REGISTER: '0/60' }).rateLimits.register).toEqual({ max: 0, windowSeconds: 60 });
  });
});

describe('config: every problem at once', () => {
  it('names each bad variable in one error, without any password', () => {
    const { problems, message } = refusal({
      SMTP_URL: 'smtp://mailer:Tr0ub4dor/3@smtp.example.com:587',
      DATABASE_URL: 'postgres://app:Super/Secret@127.0.0.1:5432/db',
      TRUST_PROXY: 'yes',
      RATE_LIMIT_LOGIN: '3/0',
      PORT: 'x',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['DATABASE_URL', 'PORT', 'RATE_LIMIT_LOGIN', 'SMTP_URL', 'TRUST_PROXY'].sort(),
    );
    for (const secret of ['Tr0ub4dor', 'Super', 'Secret']) expect(message).not.toContain(secret);
  });
});
