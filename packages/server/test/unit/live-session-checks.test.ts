import { describe, expect, it } from 'vitest';
import { liveSessionChecks } from '../../src/auth/live-session-checks.js';
import type { LiveSession } from '../../src/repositories/sessions.js';

const session = (sessionId: string, userId: number): LiveSession => ({
  sessionId,
  userId,
  email: `${sessionId}@example.com`,
  expiresAt: '2999-01-01T00:00:00.000Z',
  newsRevision: 7,
  lastUsedAt: '2026-01-01T00:00:00.000Z',
});

/** A finder over a fixed set of live sessions that records every call. */
function finder(live: LiveSession[], fail?: Error) {
  const calls: string[][] = [];
  const find = async (ids: string[]) => {
    calls.push(ids);
    if (fail) throw fail;
    return live.filter((each) => ids.includes(each.sessionId));
  };
  return { calls, find };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('live session checks', () => {
  it('ask once for all the checks of one event-loop turn, each id once, and give each check its own answer', async () => {
    const { calls, find } = finder([session('a', 1), session('b', 2)]);
    const liveSession = liveSessionChecks(find, 64);
    const answers = await Promise.all([
      liveSession('a', 1),
      liveSession('b', 2),
      liveSession('a', 1),
      liveSession('ended', 3),
      liveSession('b', 1), // b's id with another user's id: not that user's session
    ]);
    expect(calls).toEqual([['a', 'b', 'ended']]);
    expect(answers.map((answer) => answer?.email ?? null)).toEqual([
      'a@example.com',
      'b@example.com',
      'a@example.com',
      null,
      null,
    ]);
  });

  it('keep nothing from one turn to the next: a session gone between two turns is refused', async () => {
    const live = [session('a', 1)];
    const { calls, find } = finder(live);
    const liveSession = liveSessionChecks(find, 64);
    expect(await liveSession('a', 1)).toMatchObject({ sessionId: 'a' });
    live.length = 0; // ended, by this instance or another
    expect(await liveSession('a', 1)).toBeNull();
    await nextTurn();
    expect(await liveSession('a', 1)).toBeNull();
    expect(calls).toEqual([['a'], ['a'], ['a']]);
  });

  it('split a turn of more checks than one statement may ask into several, none larger than the limit', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const { calls, find } = finder(ids.map((id, i) => session(id, i)));
    const liveSession = liveSessionChecks(find, 4);
    const answers = await Promise.all(ids.map((id, i) => liveSession(id, i)));
    expect(answers.map((answer) => answer?.sessionId)).toEqual(ids);
    expect(calls.map((call) => call.length)).toEqual([4, 4, 2]);
    expect(calls.flat()).toEqual(ids);
  });

  it('fail every check that waited for a call that failed, and ask anew on the next turn', async () => {
    const outage = new Error('database unavailable');
    const failing = finder([], outage);
    const liveSession = liveSessionChecks(failing.find, 64);
    const answers = await Promise.allSettled([liveSession('a', 1), liveSession('b', 2)]);
    expect(answers).toEqual([
      { status: 'rejected', reason: outage },
      { status: 'rejected', reason: outage },
    ]);
    expect(failing.calls).toEqual([['a', 'b']]);
    await expect(liveSession('a', 1)).rejects.toBe(outage);
    expect(failing.calls).toHaveLength(2);
  });
});
