import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

const require = createRequire(import.meta.url);
/**
 * @node-rs/argon2, loaded at the first password operation rather than on every start: its code and
 * its allocator's first segment cost resident memory that a server which has hashed no password yet
 * does not need (docs/benchmarks.md, "Settings the figures explain").
 */
const argon2 = () => require('@node-rs/argon2') as typeof import('@node-rs/argon2');

export interface HashCost {
  memoryKiB: number;
  timeCost: number;
}

/**
 * How many hashes run at once: one core is always left to the event loop, so a flood of logins
 * queues here instead of slowing every other request, and at most one 19 MiB block per core is in
 * use at a time (each is handed back after its hash).
 */
export const HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);

// Numbers rather than the package's Algorithm.Argon2id and Version.V0x13, which it declares as const
// enums that isolatedModules cannot inline: 2 = argon2id, 1 = version 0x13 (19), as in its index.d.ts.
const ARGON2ID = 2;
const VERSION_0X13 = 1;

/**
 * Argon2id hashing with @node-rs/argon2 (RustCrypto's argon2), on libuv's thread pool, so hashing never
 * blocks the event loop. Chosen over node-argon2 (the C reference code) for memory: glibc kept each
 * pool thread's 19 MiB block after its first hash, this hands every block back; it also uses less CPU
 * per hash (docs/benchmarks.md, "Settings the figures explain"). Both read and write the same PHC
 * strings, and parameters live in the hash, so older hashes, or ones of another cost, still verify.
 * Passwords go in as their UTF-8 bytes, exactly as node-argon2 took them.
 */
export function createPasswordHasher(cost: HashCost, concurrency = HASH_CONCURRENCY) {
  const options = {
    algorithm: ARGON2ID,
    version: VERSION_0X13,
    memoryCost: cost.memoryKiB,
    timeCost: cost.timeCost,
    parallelism: 1,
  };
  const limit = pLimit(concurrency);
  const utf8 = (password: string) => Buffer.from(password, 'utf8');
  // Verified against when no account matches, so an unknown e-mail costs as much as a known one: a
  // hash in argon2's own format, with our cost, a random salt and random bytes no password produces.
  // Written, not computed, so it costs nothing at start-up and every verification against it costs the same.
  const b64 = (bytes: number) => randomBytes(bytes).toString('base64').replace(/=+$/, '');
  const decoy = `$argon2id$v=19$m=${cost.memoryKiB},t=${cost.timeCost},p=1$${b64(16)}$${b64(32)}`;
  return {
    hash: (password: string) => limit(() => argon2().hash(utf8(password), options)),
    async verify(hash: string, password: string): Promise<boolean> {
      try {
        return await limit(() => argon2().verify(hash, utf8(password)));
      } catch {
        return false;
      }
    },
    /** Spends one verification's time and answers false. */
    async verifyDecoy(password: string): Promise<false> {
      await limit(() => argon2().verify(decoy, utf8(password))).catch(() => false);
      return false;
    },
    /** True when a verified hash was made with other settings than today's: the login then stores a new one. */
    needsRehash(hash: string): boolean {
      try {
        const made = argon2().parseOptions(hash);
        return (
          made.algorithm !== ARGON2ID ||
          made.version !== VERSION_0X13 ||
          made.memoryCost !== options.memoryCost ||
          made.timeCost !== options.timeCost ||
          made.parallelism !== options.parallelism
        );
      } catch {
        return true;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
