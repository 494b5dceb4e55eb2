import argon2 from 'argon2';

export interface HashCost { memoryKiB: number; timeCost: number }

/**
 * Argon2id hashing. Runs on libuv's thread pool, so hashing never blocks the event loop.
 * Parameters live in the hash, so raising the cost later still verifies older hashes.
 */
export function createPasswordHasher(cost: HashCost) {
  const options = { type: argon2.argon2id, memoryCost: cost.memoryKiB, timeCost: cost.timeCost, parallelism: 1 };
  // Verified against when no account matches, so an unknown e-mail costs as much as a known one.
  const decoy = argon2.hash('decoy-password-that-matches-nothing', options);
  return {
    hash: (password: string) => argon2.hash(password, options),
    async verify(hash: string, password: string): Promise<boolean> {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
    /** Spends one verification's time and answers false. */
    async verifyDecoy(password: string): Promise<false> {
      await argon2.verify(await decoy, password).catch(() => false);
      return false;
    },
    needsRehash: (hash: string) => argon2.needsRehash(hash, options),
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
