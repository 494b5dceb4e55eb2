import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import { deviceSeenSince } from '../repositories/sessions.js';
import { isForeignKeyViolation } from '../repositories/users.js';
import type { StartedSession } from './sessions.js';

/** A device (User-Agent) not seen on the account for this long gets the owner a notice at sign-in. */
export const NEW_DEVICE_DAYS = 30;

/** A login's code step: the session id its mfa token names, and the code's use (sessions.startWithCode). */
export interface CodeStep {
  sessionId: string;
  /** Spends the code in the session's transaction; false rolls the session back. */
  spendCode: (trx: Kysely<Database>) => Promise<boolean>;
}

/**
 * Starts the session of a login whose credentials were checked, and mails the owner a notice when the
 * device is new to the account (docs/api.md, "Account center"). The notice is queued in the outbox in
 * the session's transaction: a login that answers with tokens has its notice stored, and one that
 * fails for it leaves no session; delivery never holds up the answer. Null, with no session and no
 * notice, when the account was deleted or its password changed since its credentials were checked,
 * or a code step's session could not start (sessions.startWithCode: its code refused, or its session
 * started by another step). `{ twoStep }`, with no session and no notice, when a login without a code
 * step finds two-step sign-in turned on meanwhile (sessions.startWithPassword): it is then answered
 * as that of such an account.
 */
export async function signIn(
  app: FastifyInstance,
  user: UserRow,
  context: NoticeContext,
): Promise<StartedSession | { twoStep: UserRow } | null>;
export async function signIn(
  app: FastifyInstance,
  user: UserRow,
  context: NoticeContext,
  codeStep: CodeStep,
): Promise<StartedSession | null>;
export async function signIn(
  app: FastifyInstance,
  user: UserRow,
  context: NoticeContext,
  codeStep?: CodeStep,
): Promise<StartedSession | { twoStep: UserRow } | null> {
  const since = new Date(context.at.getTime() - NEW_DEVICE_DAYS * 24 * 3600 * 1000);
  const known = await deviceSeenSince(app.db, user.id, context.userAgent, since);
  const device = { userAgent: context.userAgent, ip: context.ip };
  const queueNotice = async (trx: Kysely<Database>) => {
    if (!known) await app.mailer.queue(securityNoticeMail(user.email, { kind: 'new-device' }, context), trx);
  };
  let started;
  try {
    started = codeStep
      ? await app.sessions.startWithCode(user.id, device, codeStep.sessionId, async (trx) => {
          if (!(await codeStep.spendCode(trx))) return false;
          await queueNotice(trx);
          return true;
        })
      : await app.sessions.startWithPassword(user, device, queueNotice);
  } catch (error) {
    if (isForeignKeyViolation(error)) return null; // the session's user row is gone
    throw error;
  }
  if (started && !('twoStep' in started) && !known) app.mailer.wake();
  return started;
}
