import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import pLimit from 'p-limit';

export interface HashCost { memoryKiB: number; timeCost: number }

/**
 * How many hashes run at once: one core is always left to the event loop, so a flood of logins
 * queues here instead of slowing every other request (and holds one hash's memory per core, not
 * one per thread-pool thread).
 */
export const HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);

/**
 * Argon2id hashing. Runs on libuv's thread pool, so hashing never blocks the event loop.
 * Parameters live in the hash, so raising the cost later still verifies older hashes.
 */
export function createPasswordHasher(cost: HashCost, concurrency = HASH_CONCURRENCY) {
  const options = { type: argon2.argon2id, memoryCost: cost.memoryKiB, timeCost: cost.timeCost, parallelism: 1 };
  const limit = pLimit(concurrency);
  // Verified against when no account matches, so an unknown e-mail costs as much as a known one: a
  // hash in argon2's own format, with our cost, a random salt and random bytes no password produces.
  // Written, not computed, so it costs nothing at start-up and every verification against it costs the same.
  const b64 = (bytes: number) => randomBytes(bytes).toString('base64').replace(/=+$/, '');
  const decoy = `$argon2id$v=19$m=${cost.memoryKiB},t=${cost.timeCost},p=1$${b64(16)}$${b64(32)}`;
  return {
    hash: (password: string) => limit(() => argon2.hash(password, options)),
    async verify(hash: string, password: string): Promise<boolean> {
      try {
        return await limit(() => argon2.verify(hash, password));
      } catch {
        return false;
      }
    },
    /** Spends one verification's time and answers false. */
    async verifyDecoy(password: string): Promise<false> {
      await limit(() => argon2.verify(decoy, password)).catch(() => false);
      return false;
    },
    needsRehash: (hash: string) => argon2.needsRehash(hash, options),
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
