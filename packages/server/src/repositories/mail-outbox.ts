import type { Kysely } from 'kysely';
import type { Database, MailOutboxRow } from '../db/schema.js';

type Db = Kysely<Database>;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Writes the mail to the outbox with its body as the caller sealed it (mail/body-seal.ts: the body
 * never reaches the database readable); pass a transaction so it commits with the change it reports.
 */
export async function insertMail(
  db: Db,
  mail: OutgoingMail & { sealedText: string },
  now = new Date(),
): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      recipient: mail.to,
      subject: mail.subject,
      body_text: mail.sealedText,
      created_at: now.toISOString(),
      attempts: 0,
      next_attempt_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const pending = (db: Db) => db.selectFrom('mail_outbox').where('sent_at', 'is', null).where('failed_at', 'is', null);

/** Undelivered mail whose next attempt is due, oldest first. */
export function dueMails(db: Db, now: Date, limit: number): Promise<MailOutboxRow[]> {
  return pending(db)
    .selectAll()
    .where('next_attempt_at', '<=', now.toISOString())
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** When the next undelivered mail is due, if any. */
export async function nextAttemptAt(db: Db): Promise<Date | undefined> {
  const row = await pending(db)
    .select((eb) => eb.fn.min('next_attempt_at').as('next'))
    .executeTakeFirst();
  return row?.next ? new Date(row.next) : undefined;
}

/**
 * Claims the mail for one delivery attempt by pushing its next attempt past a lease. Only the worker
 * whose update matched the due time it read wins, so instances sharing the database never send one
 * mail twice at once; a worker that dies mid-attempt leaves the mail to be retried when the lease ends.
 */
export async function claimMail(
  db: Db,
  row: Pick<MailOutboxRow, 'id' | 'next_attempt_at'>,
  leaseUntil: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: leaseUntil.toISOString() })
    .where('id', '=', row.id)
    .where('next_attempt_at', '=', row.next_attempt_at)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Delivered. The body is replaced by a copy with its secrets removed: a sent reset link has no business staying in the database. */
export async function markSent(
  db: Db,
  id: number,
  attempts: number,
  sealedScrubbedBody: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now.toISOString(), attempts, body_text: sealedScrubbedBody, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markRetry(db: Db, id: number, attempts: number, nextAttempt: Date, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ attempts, next_attempt_at: nextAttempt.toISOString(), last_error: error })
    .where('id', '=', id)
    .execute();
}

export async function markGivenUp(
  db: Db,
  id: number,
  attempts: number,
  sealedScrubbedBody: string,
  error: string,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ attempts, failed_at: now.toISOString(), body_text: sealedScrubbedBody, last_error: error })
    .where('id', '=', id)
    .execute();
}

/** The newest mails, for operators (the command-line tool). */
export function recentMails(db: Db, limit: number): Promise<MailOutboxRow[]> {
  return db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export interface OutboxFigures {
  /** Neither delivered nor given up. */
  pending: number;
  /** Given up (undelivered after 24 hours). */
  failed: number;
  /** When the oldest pending mail was written; undefined when none is pending. */
  oldestPendingAt: Date | undefined;
}

/** The outbox's state for the metrics, in one statement (one scan of a table that retention keeps small). */
export async function outboxFigures(db: Db): Promise<OutboxFigures> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => {
      const isPending = eb.and([eb('sent_at', 'is', null), eb('failed_at', 'is', null)]);
      return [
        eb.fn.sum<number | string | null>(eb.case().when(isPending).then(1).else(0).end()).as('pending'),
        eb.fn
          .sum<number | string | null>(eb.case().when('failed_at', 'is not', null).then(1).else(0).end())
          .as('failed'),
        eb.fn.min<string | null>(eb.case().when(isPending).then(eb.ref('created_at')).end()).as('oldest'),
      ];
    })
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending ?? 0),
    failed: Number(row.failed ?? 0),
    oldestPendingAt: row.oldest ? new Date(row.oldest) : undefined,
  };
}
