import argon2 from '@node-rs/argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPasswordHasher } from '../../src/auth/passwords.js';

const cheap = { memoryKiB: 1024, timeCost: 1 };

// Made by node-argon2 0.44 (the C reference code), the library this server used before: hashes already
// stored in a database must go on verifying.
const madeByNodeArgon2 = {
  'Plum-Orchard-1987':
    '$argon2id$v=19$m=1024,t=1,p=1$Ftacls7LSHVYYxJKI9ILpw$bOtl4twXjpzAqMBxnXuZGMtT6JjpmnZBPeYAiPxUlXQ',
  'Grüße, 東京 🌸': '$argon2id$v=19$m=1024,t=1,p=1$B9qPfu3jjDEwTgx07TiRzA$fATZCQVEcah7+2ELtz30ytDQPPbfNTs91RtxyRj6Jok',
};

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
    const seen: Array<{ digest: string; outcome: string }> = [];
    const realVerify = argon2.verify.bind(argon2);
    vi.spyOn(argon2, 'verify').mockImplementation(async (...args: Parameters<typeof argon2.verify>) => {
      const call = { digest: String(args[0]), outcome: 'pending' };
      seen.push(call);
      try {
        const matched = await realVerify(...args);
        call.outcome = `answered ${matched}`;
        return matched;
      } catch (error) {
        call.outcome = `rejected: ${(error as Error).message}`;
        throw error;
      }
    });
    expect(await hasher.verifyDecoy('any password at all')).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.digest).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    // Answered, not rejected: a digest the library cannot parse is refused at once, without the hash's
    // work, and an unknown e-mail would then answer faster than a known one.
    expect(seen[0]!.outcome).toBe('answered false');
  });

  it('writes argon2id hashes at the configured cost that verify only with their own password', async () => {
    const hasher = createPasswordHasher(cheap, 1);
    const hash = await hasher.hash('Grüße, 東京 🌸');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.verify(hash, 'Grüße, 東京 🌸')).toBe(true);
    expect(await hasher.verify(hash, 'Grüsse, 東京 🌸')).toBe(false);
    expect(await hasher.verify('not a hash', 'Grüße, 東京 🌸')).toBe(false);
  });

  it('verifies the hashes node-argon2 stored, byte for byte the same password encoding', async () => {
    const hasher = createPasswordHasher(cheap, 1);
    for (const [password, hash] of Object.entries(madeByNodeArgon2)) {
      expect(await hasher.verify(hash, password)).toBe(true);
      expect(await hasher.verify(hash, `${password}!`)).toBe(false);
      expect(hasher.needsRehash(hash)).toBe(false);
    }
  });

  it('asks for a new hash when a stored one was made with other settings', async () => {
    const hasher = createPasswordHasher(cheap, 1);
    const today = await hasher.hash('Plum-Orchard-1987');
    expect(hasher.needsRehash(today)).toBe(false);
    expect(hasher.needsRehash(await createPasswordHasher({ memoryKiB: 2048, timeCost: 1 }, 1).hash('x'))).toBe(true);
    expect(hasher.needsRehash(await createPasswordHasher({ memoryKiB: 1024, timeCost: 2 }, 1).hash('x'))).toBe(true);
    expect(
      hasher.needsRehash(
        '$argon2i$v=19$m=1024,t=1,p=1$ubsAk6T9XIE8YS/eUphu0g$SXr6D8y+TiQzRiDkFyCyZpEhE9y6Gcyi3hoKWrZNfg8',
      ),
    ).toBe(true);
    expect(hasher.needsRehash('not a hash')).toBe(true);
  });
});
