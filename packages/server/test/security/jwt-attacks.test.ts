import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { dbSnapshotter } from '../helpers/db-snapshot.js';
import { forgeries } from '../helpers/forged-tokens.js';
import { multipartBody } from '../helpers/multipart-body.js';
import { createUser, type TestUser } from '../helpers/users.js';

/**
 * JWT attacks (docs/api.md, "Authentication"): forged, tampered, expired and misused tokens on every
 * authenticated call. Each must answer 401 `token_not_valid` with WWW-Authenticate, change nothing,
 * and leave the victim's real session working.
 */
type Slot = 'Bearer' | 'Token' | 'body';
interface Call {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  slot: Slot;
  /** A body that is valid in every respect but the token. */
  body?: () => Promise<{ payload: Buffer | string; contentType: string }>;
}

const json = (value: unknown) => async () => ({ payload: JSON.stringify(value), contentType: 'application/json' });
const calls: Call[] = [
  { name: 'GET localnews', method: 'GET', url: '/api/v1/localnews/', slot: 'Bearer' },
  { name: 'GET profile', method: 'GET', url: '/api/v1/user/profile/', slot: 'Bearer' },
  {
    name: 'POST profile',
    method: 'POST',
    url: '/api/v1/user/profile/',
    slot: 'Bearer',
    body: json({
      first_name: 'Eve',
      last_name: 'Forger',
      user_profile: { telephone: '1', mobile: '2', website: 'https://evil.example/' },
    }),
  },
  {
    name: 'PUT changepassword',
    method: 'PUT',
    url: '/api/v1/users/changepassword/',
    slot: 'Bearer',
    body: json({
      old_password: 'correct horse battery',
      new_password: 'Owned-By-Eve-2026!',
      confirm: 'Owned-By-Eve-2026!',
    }),
  },
  {
    name: 'POST localnews/new',
    method: 'POST',
    url: '/api/v1/localnews/new',
    slot: 'Token',
    body: () => multipartBody({ title: 'forged', content: 'news' }, [{ name: 'a.txt', bytes: Buffer.from('hello') }]),
  },
  { name: 'POST logout', method: 'POST', url: '/api/v1/rest-auth/logout/', slot: 'Token' },
  { name: 'POST token/refresh', method: 'POST', url: '/api/v1/token/refresh/', slot: 'body' },
  { name: 'POST api-jwt-logout', method: 'POST', url: '/api/v1/rest-auth/api-jwt-logout/', slot: 'body' },
];

describe.each(dialects)('JWT attacks (%s)', (dialect) => {
  let t: TestApp;
  let victim: TestUser;
  let other: TestUser;
  let attacks: Record<'access' | 'refresh', [string, string][]>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    victim = await createUser(t);
    other = await createUser(t);
    // A token of a user whose row is gone, and of a session that was logged out: genuine signatures.
    const deleted = await createUser(t);
    await t.app.db.deleteFrom('sessions').where('user_id', '=', deleted.userId).execute();
    await t.app.db.deleteFrom('users').where('id', '=', deleted.userId).execute();
    const loggedOut = await t.app.sessions.start(victim.userId);
    await t.app.sessions.end(loggedOut.sessionId);
    const key = t.config.secretKey;
    attacks = {
      access: [
        ...forgeries(victim.access, victim.refresh, key, other.userId),
        ['access token of a deleted user', deleted.access],
        ['access token of an ended session', loggedOut.access],
      ],
      refresh: [
        ...forgeries(victim.refresh, victim.access, key, other.userId),
        ['refresh token of a deleted user', deleted.refresh],
        ['refresh token of an ended session', loggedOut.refresh],
      ],
    };
  });
  afterAll(() => t?.close());

  async function request(call: Call, token: string) {
    const body = call.slot === 'body' ? await json({ refresh: token })() : await call.body?.();
    const headers: Record<string, string> = {};
    if (call.slot !== 'body') headers.authorization = `${call.slot} ${token}`;
    if (body) headers['content-type'] = body.contentType;
    return t.app.inject({ method: call.method, url: call.url, headers, ...(body ? { payload: body.payload } : {}) });
  }

  it.each(calls)('$name refuses every forged or misused token', async (call) => {
    const snapshot = await dbSnapshotter(t.app.db, dialect);
    const before = await snapshot();
    const tokens = attacks[call.slot === 'Bearer' ? 'access' : 'refresh'].filter(
      ([name]) => !(call.slot === 'body' && name === 'empty string'),
    );
    const wrong: string[] = [];
    for (const [name, token] of tokens) {
      const res = await request(call, token);
      const body = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : res.body;
      if (res.statusCode !== 401 || body?.code !== 'token_not_valid' || !res.headers['www-authenticate']) {
        wrong.push(
          `${name}: ${res.statusCode} ${JSON.stringify(body)} www-authenticate=${String(res.headers['www-authenticate'])}`,
        );
      }
    }
    expect(wrong, `${call.name}: attacks that were not refused as token_not_valid`).toEqual([]);
    expect(tokens.length).toBeGreaterThanOrEqual(25);
    // Nothing changed: no password, profile, news item or session was touched by a forgery.
    expect(await snapshot()).toBe(before);
  });

  it('still serves the victim with the genuine tokens (the attacks above were refused for the token alone)', async () => {
    const ok = [
      await request(calls[0]!, victim.access),
      await request(calls[1]!, victim.access),
      await request(calls[6]!, victim.refresh),
      await request(calls[4]!, victim.refresh),
    ];
    expect(ok.map((r) => r.statusCode)).toEqual([200, 200, 200, 201]);
  });
});
