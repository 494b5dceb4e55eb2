import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { resetPasswordMail } from '../mail/messages.js';
import { securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import { insertResetToken, findUsableResetToken, useResetToken } from '../repositories/reset-tokens.js';
import { endUserSessions } from '../repositories/sessions.js';
import { useUpUserTokens } from '../repositories/single-use-tokens.js';
import { changeAccount, emailKey, findUserByEmail, setPasswordHash, stillAsRead } from '../repositories/users.js';
import { hashResetToken, looksLikeResetToken, newResetToken } from './reset-tokens.js';

/**
 * Starts a reset: a single-use token, stored hashed, and a mail with the link to the account's owner.
 * Known and unknown addresses go through the same steps before the answer (the lookup, the limit's
 * count in its own transaction), so the answer is the same in status, body and timing. For a known
 * one, the token and the mail are stored by the returned step, which the caller runs once the answer
 * has gone out: their writes (a commit of two more tables, or more round trips to PostgreSQL) took
 * over a millisecond, enough to tell the two kinds apart. That work still delays whatever the server
 * answers in the millisecond after (docs/api.md, "Password reset"). The outbox worker sends the mail.
 */
export async function requestReset(
  app: FastifyInstance,
  ip: string,
  email: string,
  path: string,
  log: FastifyBaseLogger,
): Promise<(() => Promise<void>) | undefined> {
  const user = await findUserByEmail(app.db, email);
  await app.db.transaction().execute((trx) => app.rateLimits.consume('reset', { account: emailKey(email), ip }, trx));
  if (!user) return undefined;
  return async () => {
    const { token, hash } = newResetToken();
    // From PUBLIC_URL, never from the request's Host header: a forged Host cannot redirect the link.
    const link = `${app.config.publicUrl}${path}?token=${token}`;
    const stored = await app.db.transaction().execute(async (trx) => {
      // A password set since the request (a change, another reset, just now) voids the links asked
      // for before it, as it voids those stored already, and so does a confirmed change of address:
      // the link would go to the old one. The account deleted meanwhile has no row.
      if (!(await stillAsRead(trx, user))) return false;
      await insertResetToken(trx, user.id, hash, app.config.resetTokenLifetime);
      await app.mailer.queue(resetPasswordMail(user.email, link, app.config.resetTokenLifetime), trx);
      return true;
    });
    if (!stored) return;
    app.mailer.wake();
    // The contract's local mode: with no mail server, the log is how a person gets the link.
    if (app.mailer.kind === 'file')
      log.info(`Password reset link for ${user.email} (no SMTP_URL, so it is only in DATA_DIR/mail and here): ${link}`);
  };
}

/** The usable (unused, unexpired) token's row, or undefined. */
export async function findResetToken(app: FastifyInstance, token: string) {
  if (!looksLikeResetToken(token)) return undefined;
  return findUsableResetToken(app.db, hashResetToken(token));
}

/**
 * Sets the new password, uses the token (and every other unused one of the user) up, ends every
 * session of the user, voids the e-mail changes still waiting for their link, and queues the owner's
 * notice, all in one transaction. False when the token was used meanwhile.
 */
export async function completeReset(
  app: FastifyInstance,
  tokenRow: { id: number; userId: number; email: string },
  password: string,
  context: NoticeContext,
): Promise<boolean> {
  const hash = await app.passwords.hash(password);
  // The user's row before the tokens (changeAccount), as an account deletion takes them.
  const done = await changeAccount(app.db, tokenRow.userId, async (trx) => {
    if (!(await useResetToken(trx, tokenRow.id, tokenRow.userId))) return false;
    await setPasswordHash(trx, tokenRow.userId, hash);
    await endUserSessions(trx, tokenRow.userId);
    await useUpUserTokens(trx, 'email_change_tokens', tokenRow.userId);
    await app.mailer.queue(securityNoticeMail(tokenRow.email, { kind: 'password-reset' }, context), trx);
    return true;
  });
  if (done) app.mailer.wake();
  return done;
}
