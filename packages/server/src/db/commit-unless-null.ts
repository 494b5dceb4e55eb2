import type { Kysely, Transaction } from 'kysely';

/** Thrown to roll a transaction back on purpose; never leaves commitUnlessNull. */
class RolledBack extends Error {}

/**
 * Runs `work` in a transaction that commits and answers its value, or rolls back and answers null
 * when the value is null: a check that can only be made after some writes (a code found used) undoes
 * them. An error rolls back and is thrown as ever.
 */
export async function commitUnlessNull<DB, T>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<T | null>,
): Promise<T | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      const value = await work(trx);
      if (value === null) throw new RolledBack();
      return value;
    });
  } catch (error) {
    if (error instanceof RolledBack) return null;
    throw error;
  }
}
