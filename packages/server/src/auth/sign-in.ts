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
 * device is new to the account (docs/api.md, "Account center"). The notice goes through the outbox
 * after the session started: the answer never waits for it. Null, with no session and no notice, when
 * the account was deleted or its password changed since its credentials were checked, or a code
 * step's session could not start (sessions.startWithCode: its code refused, or its session started
 * by another step).
 */
export async function signIn(
  app: FastifyInstance,
  user: UserRow,
  context: NoticeContext,
  codeStep?: CodeStep,
): Promise<StartedSession | null> {
  const since = new Date(context.at.getTime() - NEW_DEVICE_DAYS * 24 * 3600 * 1000);
  const known = await deviceSeenSince(app.db, user.id, context.userAgent, since);
  const device = { userAgent: context.userAgent, ip: context.ip };
  let started;
  try {
    started = codeStep
      ? await app.sessions.startWithCode(user.id, device, codeStep.sessionId, codeStep.spendCode)
      : await app.sessions.startWithPassword(user.id, user.password_hash, device);
  } catch (error) {
    if (isForeignKeyViolation(error)) return null; // the session's user row is gone
    throw error;
  }
  if (started && !known) await app.mailer.send(securityNoticeMail(user.email, { kind: 'new-device' }, context));
  return started;
}
