import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import { deviceSeenSince } from '../repositories/sessions.js';

/** A device (User-Agent) not seen on the account for this long gets the owner a notice at sign-in. */
export const NEW_DEVICE_DAYS = 30;

/**
 * Starts the session of a login whose credentials were checked, and mails the owner a notice when the
 * device is new to the account (docs/api.md, "Account center"). The notice goes through the outbox
 * after the session started: the answer never waits for it. `sessionId`: see sessions.start.
 */
export async function signIn(app: FastifyInstance, user: UserRow, context: NoticeContext, sessionId?: string) {
  const since = new Date(context.at.getTime() - NEW_DEVICE_DAYS * 24 * 3600 * 1000);
  const known = await deviceSeenSince(app.db, user.id, context.userAgent, since);
  const tokens = await app.sessions.start(user.id, { userAgent: context.userAgent, ip: context.ip }, sessionId);
  if (!known) await app.mailer.send(securityNoticeMail(user.email, { kind: 'new-device' }, context));
  return tokens;
}
