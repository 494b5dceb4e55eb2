import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import { deviceSeenSince } from '../repositories/sessions.js';
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
 * after the session started: the answer never waits for it. With a code step, null when its
 * `spendCode` refused (no session, no notice).
 */
export async function signIn(app: FastifyInstance, user: UserRow, context: NoticeContext): Promise<StartedSession>;
export async function signIn(
  app: FastifyInstance,
  user: UserRow,
  context: NoticeContext,
  codeStep: CodeStep,
): Promise<StartedSession | null>;
export async function signIn(app: FastifyInstance, user: UserRow, context: NoticeContext, codeStep?: CodeStep) {
  const since = new Date(context.at.getTime() - NEW_DEVICE_DAYS * 24 * 3600 * 1000);
  const known = await deviceSeenSince(app.db, user.id, context.userAgent, since);
  const device = { userAgent: context.userAgent, ip: context.ip };
  const started = codeStep
    ? await app.sessions.startWithCode(user.id, device, codeStep.sessionId, codeStep.spendCode)
    : await app.sessions.start(user.id, device);
  if (started && !known) await app.mailer.send(securityNoticeMail(user.email, { kind: 'new-device' }, context));
  return started;
}
