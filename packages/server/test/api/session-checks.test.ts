import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, type Profile } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { createSession, findLiveSessions, MAX_SESSIONS_PER_QUERY } from '../../src/repositories/sessions.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { hmacJwt } from '../helpers/forged-tokens.js';
import { bearer, createUser, type TestUser } from '../helpers/users.js';

const tokenNotValid = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

/**
 * Every authenticated request asks whether its session is live; the requests of one event-loop turn
 * are asked about in one statement (auth/live-session-checks.ts). These check, against the real
 * database, that each request still gets its own answer, whatever else shares its statement.
 */
describe.each(dialects)('session checks of many requests at once (%s)', (dialect) => {
  let t: TestApp;
  let other: TestApp['app'];
  let users: TestUser[];
  /** Tokens that are well signed but name a session that is ended, expired, or another user's. */
  let refused: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { ACCESS_TOKEN_LIFETIME: '3600' });
    other = await buildApp(t.config); // a second instance on the same data
    users = [];
    for (let i = 0; i < 5; i++) users.push(await createUser(t));
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const access = (sessionId: string, userId: number) =>
      hmacJwt('HS256', t.config.secretKey, {
        token_type: 'access',
        sid: sessionId,
        sub: String(userId),
        jti: randomUUID(),
        exp,
      });
    const [alice, bob] = users as [TestUser, TestUser];
    const ended = await t.app.sessions.start(alice.userId);
    await t.app.sessions.end(ended.sessionId);
    const expired = await createSession(t.app.db, alice.userId, -60, { userAgent: '', ip: '' });
    const bobs = await t.app.sessions.start(bob.userId);
    refused = {
      ended: access(ended.sessionId, alice.userId),
      expired: access(expired.id, alice.userId),
      "another user's": access(bobs.sessionId, alice.userId),
      unknown: access(randomUUID(), alice.userId),
    };
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const profile = (access: string, app = t.app) =>
    app.inject({ method: 'GET', url: apiPaths.userProfile, headers: bearer({ access }) });

  it('give each of 150 requests made at once its own user, and refuse the ones whose session is not live', async () => {
    const asked = Array.from({ length: 150 }, (_, i) => {
      const bad = Object.entries(refused)[i % 7];
      return bad
        ? { expect: null, access: bad[1] }
        : { expect: users[i % users.length]!.email, access: users[i % users.length]!.access };
    });
    const answers = await Promise.all(asked.map((each) => profile(each.access)));
    answers.forEach((res, i) => {
      if (asked[i]!.expect === null) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(tokenNotValid);
      } else {
        expect(res.statusCode).toBe(200);
        expect(res.json<Profile>().email).toBe(asked[i]!.expect);
      }
    });
    expect(answers.filter((res) => res.statusCode === 401)).toHaveLength(
      asked.filter((each) => each.expect === null).length,
    );
  });

  it('refuse on the very next request a session ended through another instance', async () => {
    const carol = await createUser(t);
    const before = await Promise.all([profile(carol.access), profile(carol.access, other)]);
    expect(before.map((res) => res.statusCode)).toEqual([200, 200]);
    const res = await other.inject({ method: 'POST', url: apiPaths.jwtLogout, payload: { refresh: carol.refresh } });
    expect(res.statusCode).toBe(200);
    const after = await Promise.all([profile(carol.access), profile(carol.access), profile(carol.access, other)]);
    expect(after.map((each) => each.statusCode)).toEqual([401, 401, 401]);
  });

  it('find exactly the live sessions among any number of ids up to the limit', async () => {
    const live = await Promise.all(
      Array.from({ length: MAX_SESSIONS_PER_QUERY }, () => t.app.sessions.start(users[0]!.userId)),
    );
    const dead = [randomUUID(), randomUUID()];
    // Lengths on both sides of each length a list is padded to (1, 4, 16, 64).
    for (const count of [1, 2, 3, 14, 15, MAX_SESSIONS_PER_QUERY - dead.length]) {
      const ids = [...dead.slice(0, 1), ...live.slice(0, count).map((s) => s.sessionId), ...dead.slice(1)];
      const found = await findLiveSessions(t.app.db, ids);
      expect(found.map((s) => s.sessionId).sort()).toEqual(
        live
          .slice(0, count)
          .map((s) => s.sessionId)
          .sort(),
      );
      for (const session of found)
        expect(session).toMatchObject({
          userId: users[0]!.userId,
          email: users[0]!.email,
          newsRevision: expect.any(Number),
        });
    }
    expect(await findLiveSessions(t.app.db, dead)).toEqual([]);
    await expect(findLiveSessions(t.app.db, [])).rejects.toThrow(RangeError);
    const tooMany = Array.from({ length: MAX_SESSIONS_PER_QUERY + 1 }, () => randomUUID());
    await expect(findLiveSessions(t.app.db, tooMany)).rejects.toThrow(RangeError);
  });
});
