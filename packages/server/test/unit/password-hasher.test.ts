import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPasswordHasher } from '../../src/auth/passwords.js';

const cheap = { memoryKiB: 1024, timeCost: 1 };

describe('password hasher', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs no more hashes at once than its concurrency, and queues the rest', async () => {
    let running = 0;
    let most = 0;
    const realHash = argon2.hash.bind(argon2);
    vi.spyOn(argon2, 'hash').mockImplementation(async (...args: Parameters<typeof argon2.hash>) => {
      most = Math.max(most, ++running);
      try {
        return await realHash(...args);
      } finally {
        running--;
      }
    });
    const hasher = createPasswordHasher(cheap, 2);
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hasher.hash(`password ${i}`)));
    expect(most).toBe(2);
    expect(new Set(hashes).size).toBe(6);
    expect(await hasher.verify(hashes[3]!, 'password 3')).toBe(true);
  });

  it('answers false for the decoy after one full verification at the configured cost', async () => {
    const hasher = createPasswordHasher(cheap, 1);
    const seen: string[] = [];
    const realVerify = argon2.verify.bind(argon2);
    vi.spyOn(argon2, 'verify').mockImplementation(async (digest: string, password) => {
      seen.push(digest);
      return realVerify(digest, password);
    });
    expect(await hasher.verifyDecoy('any password at all')).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });
});
