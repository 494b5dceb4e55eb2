import type { FastifyInstance } from 'fastify';
import { serverMessages } from '@hello/contract';
import type { UserRow } from '../db/schema.js';
import { httpErrors } from '../http-errors.js';
import { securityNoticeMail, type NoticeContext } from '../mail/security-notices.js';
import { deleteNewsOfAuthor } from '../repositories/news.js';
import { endUserSessions } from '../repositories/sessions.js';
import { changeAccount, deleteUser } from '../repositories/users.js';
import { changeWithFiles } from '../storage/file-changes.js';
import { requireAsChecked } from './as-checked.js';

/**
 * Deletes the account and everything of it (docs/api.md, "Account center"): its news items and
 * their file rows, then the user (sessions and tokens go with it by ON DELETE CASCADE), with the
 * owner's notice queued, in one transaction; the attachments leave the disk only after the commit
 * (storage/file-changes.ts), so a crash at any point leaves the whole account or none of it, and at
 * worst files the next start-up sweep removes. The e-mail is free to register again at once.
 */
export async function deleteAccount(
  app: FastifyInstance,
  user: UserRow,
  sessionId: string,
  context: NoticeContext,
): Promise<void> {
  await changeWithFiles(
    app.uploads,
    {
      staged: [],
      commit: () =>
        // The user's row, then the sessions, then the items: the order in which a password change
        // or reset (row, sessions), a login's code step (row, then its session and the row's write)
        // and a news edit (session, item) take theirs, so that none of them deadlocks with this on
        // PostgreSQL. A post or edit in flight through a session then commits before the items are
        // read here, or is refused (sessions.ts, requireLiveSession).
        changeAccount(app.db, user.id, async (trx) => {
          // Not when a reset or logout came while the password was checked (401), or the password
          // or address changed then (400, as a wrong password).
          await requireAsChecked(trx, user, sessionId, () =>
            httpErrors.fields({ password: [serverMessages.wrongPassword] }),
          );
          await endUserSessions(trx, user.id);
          const files = await deleteNewsOfAuthor(trx, user.id);
          await deleteUser(trx, user.id);
          await app.mailer.queue(securityNoticeMail(user.email, { kind: 'account-deleted' }, context), trx);
          return files;
        }),
      removed: (files) => files,
    },
    (error) => app.log.warn({ err: error }, 'a deleted account left attachments on disk until the next start-up sweep'),
  );
  app.mailer.wake();
}
