import { setImmediate as nextTurn } from 'node:timers/promises';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** Rows deleted by one run, per kind. */
export interface RetentionCounts {
  sessions: number;
  resetTokens: number;
  /** E-mail change links (migration 005): they go by the same rule as reset links. */
  emailTokens: number;
  mails: number;
  /** Used recovery codes of two-step sign-in (migration 006): once used, a code is only a record. */
  recoveryCodes: number;
}

/** One reason a row is old: `column` (a timestamp) is before the cutoff. `key` names the row. */
type Rule = {
  [T in keyof Database]: {
    kind: keyof RetentionCounts;
    table: T;
    key: keyof Database[T] & string;
    column: keyof Database[T] & string;
  };
}[keyof Database];

/**
 * What retention deletes (docs/api.md, "Operating the product"): a row goes once the moment it ended, expired, was
 * used, was delivered or was given up is older than the cutoff. A column that is null (a live
 * session, an unused token, a mail not yet sent) never matches, so live sessions, usable tokens and
 * pending mails stay whatever their age (a recovery code's only moment is its use). One statement per
 * column, so each can use its index.
 */
const RULES: readonly Rule[] = [
  { kind: 'sessions', table: 'sessions', key: 'id', column: 'ended_at' },
  { kind: 'sessions', table: 'sessions', key: 'id', column: 'expires_at' },
  { kind: 'resetTokens', table: 'password_reset_tokens', key: 'id', column: 'used_at' },
  { kind: 'resetTokens', table: 'password_reset_tokens', key: 'id', column: 'expires_at' },
  { kind: 'emailTokens', table: 'email_change_tokens', key: 'id', column: 'used_at' },
  { kind: 'emailTokens', table: 'email_change_tokens', key: 'id', column: 'expires_at' },
  { kind: 'mails', table: 'mail_outbox', key: 'id', column: 'sent_at' },
  { kind: 'mails', table: 'mail_outbox', key: 'id', column: 'failed_at' },
  // Too few to need an index (at most ten an account with two-step sign-in), as used reset tokens.
  { kind: 'recoveryCodes', table: 'totp_recovery_codes', key: 'id', column: 'used_at' },
];

export const DEFAULT_BATCH_SIZE = 1000;

export interface DeleteOptions {
  /** Most rows one statement deletes: no statement holds a lock for long, whatever the backlog. */
  batchSize?: number;
  /** Stops between batches (the app is closing); what is left goes at the next run. */
  signal?: AbortSignal;
}

/**
 * Deletes what is older than `cutoff`, a batch at a time, until a batch comes back short.
 *
 * Safe with any number of instances running it at once: each statement deletes by the same condition,
 * so a row is deleted (and counted) once, by whichever gets it first. On PostgreSQL the batch's rows
 * are picked `FOR UPDATE SKIP LOCKED`, so two instances take different rows instead of one waiting
 * on the other's; SQLite has one writer at a time anyway, and each batch is one short write.
 */
export async function deleteExpired(db: Db, cutoff: Date, options: DeleteOptions = {}): Promise<RetentionCounts> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const before = cutoff.toISOString();
  const pick = db.getExecutor().adapter instanceof PostgresAdapter ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const deleted: RetentionCounts = { sessions: 0, resetTokens: 0, emailTokens: 0, mails: 0, recoveryCodes: 0 };
  for (const { kind, table, key, column } of RULES) {
    for (;;) {
      if (options.signal?.aborted) return deleted;
      const result = await sql`
        DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)} IN (
          SELECT ${sql.ref(key)} FROM ${sql.table(table)} WHERE ${sql.ref(column)} < ${before} LIMIT ${batchSize}${pick}
        )`.execute(db);
      const count = Number(result.numAffectedRows ?? 0);
      deleted[kind] += count;
      if (count < batchSize) break;
      await nextTurn(); // requests waiting on this process are served between batches
    }
  }
  return deleted;
}
