import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { appRoutes, serverMessages } from '@hello/contract';
import type { UserRow } from '../db/schema.js';
import { httpErrors } from '../http-errors.js';
import { confirmEmailMail, emailTakenMail, securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import {
  findUsableEmailChangeToken,
  insertEmailChangeToken,
  useEmailChangeToken,
} from '../repositories/email-change-tokens.js';
import { accountEmailChanged } from '../repositories/news.js';
import { useUpUserTokens } from '../repositories/single-use-tokens.js';
import { changeAccount, findUserByEmail, isUniqueViolation, setEmail } from '../repositories/users.js';
import { requireAsChecked } from './as-checked.js';
import { hashResetToken, looksLikeResetToken, newResetToken } from './reset-tokens.js';

/**
 * Starts a change of the user's e-mail (docs/api.md, "Account center"): the new address gets a
 * single-use link (the token stored hashed, expiring like a reset link), or, when it has an account
 * already, a mail saying so instead, so the answer is the same either way; the current address gets a
 * notice. Nothing changes until the link is opened. All mails go through the outbox in one transaction,
 * which stores nothing when, since `user` was read and the password checked, the caller's session
 * (`sessionId`) ended (401) or the account's password or address changed (400, as a wrong password).
 */
export async function requestEmailChange(
  app: FastifyInstance,
  user: UserRow,
  sessionId: string,
  newEmail: string,
  context: NoticeContext,
  log: FastifyBaseLogger,
): Promise<void> {
  const taken = (await findUserByEmail(app.db, newEmail)) !== undefined;
  const { token, hash } = newResetToken();
  const link = `${app.config.publicUrl}${appRoutes.confirmEmail}?token=${token}`;
  const lifetime = app.config.resetTokenLifetime;
  await app.db.transaction().execute(async (trx) => {
    // A reset the owner made while the password was checked must not let a stolen session's change through.
    await requireAsChecked(trx, user, sessionId, () => httpErrors.fields({ password: [serverMessages.wrongPassword] }));
    if (taken) {
      await app.mailer.queue(emailTakenMail(newEmail, app.config.publicUrl), trx);
    } else {
      await insertEmailChangeToken(trx, user.id, newEmail.trim(), hash, lifetime);
      await app.mailer.queue(confirmEmailMail(newEmail, link, lifetime), trx);
    }
    await app.mailer.queue(securityNoticeMail(user.email, { kind: 'email-change-requested', newEmail }, context), trx);
  });
  app.mailer.wake();
  // As for reset links: with no mail server, the log is how a person at the console gets the link.
  if (!taken && app.mailer.kind === 'file')
    log.info(
      `E-mail confirmation link for ${newEmail} (no SMTP_URL, so it is only in DATA_DIR/mail and here): ${link}`,
    );
}

/**
 * Confirms a change by its link's token: the account takes the new address, every pending link of
 * the user is used up, the old address gets a notice; one transaction. False when the token is not
 * usable (unknown, used, expired) or the address was taken by another account meanwhile.
 */
export async function confirmEmailChange(
  app: FastifyInstance,
  token: string,
  context: NoticeContext,
): Promise<boolean> {
  if (!looksLikeResetToken(token)) return false;
  const row = await findUsableEmailChangeToken(app.db, hashResetToken(token));
  if (!row) return false;
  try {
    // The user's row before the tokens (changeAccount), as account deletion and a reset take them.
    const changed = await changeAccount(app.db, row.userId, async (trx) => {
      if (!(await useEmailChangeToken(trx, row.id, row.userId))) return false;
      // Taken by another account meanwhile: the token is spent (committed) and nothing changes.
      if (!(await setEmail(trx, row.userId, row.newEmail))) return false;
      // The reset links went to the old address, whoever reads it now: they die with the change.
      await useUpUserTokens(trx, 'password_reset_tokens', row.userId);
      const notice = securityNoticeMail(row.email, { kind: 'email-changed', newEmail: row.newEmail }, context);
      await app.mailer.queue(notice, trx);
      return true;
    });
    if (changed) {
      app.mailer.wake();
      // After the commit, not in it: the change of address is not held up by the news list's
      // revision row, which every post locks. If this fails, the kept answers name the old address
      // until the links' next expiry step at the latest.
      await accountEmailChanged(app.db).catch((error: unknown) =>
        app.log.warn({ err: error }, 'email change: the news revision was not raised'),
      );
    }
    return changed;
  } catch (error) {
    if (isUniqueViolation(error)) return false; // registered at the same moment: nothing was changed
    throw error;
  }
}
