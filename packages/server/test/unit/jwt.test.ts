import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJwt } from '../../src/auth/jwt.js';

// Verified tokens are remembered (auth/jwt.ts, VerifiedTokens); what is remembered must never let a
// token through that a fresh check would refuse.
describe('JWT verification with remembered tokens', () => {
  afterEach(() => vi.useRealTimers());
  const claims = { userId: 7, sessionId: 'session-7', type: 'access' as const };

  it('accepts a token again until its exp, and refuses it from then on', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 0, 0));
    const jwt = createJwt('k'.repeat(48));
    const token = jwt.sign(claims, new Date(Date.now() + 60_000));
    expect(jwt.verify(token, 'access')).toEqual(claims);
    expect(jwt.verify(token, 'access')).toEqual(claims); // remembered
    vi.setSystemTime(Date.now() + 60_001);
    expect(jwt.verify(token, 'access')).toBeNull();
  });

  it('refuses a remembered token of the other type, and any changed token', () => {
    const jwt = createJwt('k'.repeat(48));
    const token = jwt.sign(claims, new Date(Date.now() + 60_000));
    expect(jwt.verify(token, 'access')).not.toBeNull();
    expect(jwt.verify(token, 'refresh')).toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(jwt.verify(`${header}.${payload}.${flipped}`, 'access')).toBeNull();
    expect(jwt.verify(`${header}.${payload}.`, 'access')).toBeNull();
  });

  it('refuses a token signed with another key even after the genuine one was remembered', () => {
    const ours = createJwt('k'.repeat(48));
    const theirs = createJwt('x'.repeat(48));
    expect(ours.verify(ours.sign(claims, new Date(Date.now() + 60_000)), 'access')).not.toBeNull();
    expect(ours.verify(theirs.sign(claims, new Date(Date.now() + 60_000)), 'access')).toBeNull();
  });
});
