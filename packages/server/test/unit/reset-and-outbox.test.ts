import { describe, expect, it } from 'vitest';
import { isSafeResetPath, looksLikeResetToken, newResetToken, hashResetToken } from '../../src/auth/reset-tokens.js';
import { retryDelayMs } from '../../src/mail/outbox-worker.js';

describe('reset tokens', () => {
  it('are 32 random bytes in base64url, hashed with SHA-256', () => {
    const { token, hash } = newResetToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(looksLikeResetToken(token)).toBe(true);
    expect(hash).toBe(hashResetToken(token));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(newResetToken().token).not.toBe(token);
  });

  it('accept only a plain path on this site as the reset page', () => {
    for (const ok of ['/resetnewpassword', '/a/b-c_d.e~f', '/']) expect(isSafeResetPath(ok), ok).toBe(true);
    for (const bad of [
      '',
      'resetnewpassword',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil',
      'https://evil.example/',
      'javascript:alert(1)',
      '/x?y=1',
      '/x#frag',
      '/x y',
      '/x\n',
    ]) {
      expect(isSafeResetPath(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('outbox back-off', () => {
  it('doubles from the base delay and stops at the cap', () => {
    const o = { baseDelayMs: 1000, maxDelayMs: 300_000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, o))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(9, o)).toBe(256_000);
    expect(retryDelayMs(10, o)).toBe(300_000);
    expect(retryDelayMs(1000, o)).toBe(300_000);
  });
});
