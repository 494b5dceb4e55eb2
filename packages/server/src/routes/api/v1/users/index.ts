import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  changePasswordRequest,
  changePasswordResponse,
  serverMessages,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type FieldErrors,
} from '@hello/contract';
import { checkOwnPassword } from '../../../../auth/login.js';
import { passwordProblems } from '../../../../auth/password-rules.js';
import { securityNoticeMail } from '../../../../mail/security-notices.js';
import { commitUnlessNull } from '../../../../db/commit-unless-null.js';
import { httpErrors, type ApiError } from '../../../../http-errors.js';
import { endUserSessions, useLiveSession } from '../../../../repositories/sessions.js';
import { useUpUserTokens } from '../../../../repositories/single-use-tokens.js';
import { replacePasswordHash } from '../../../../repositories/users.js';
import { bodyErrors, consumes, unauthorized, throttled, unavailable } from '../../../../schemas/errors.js';
import { currentUser } from '../../../current-user.js';
import { noticeContext } from '../../../device-of.js';

/** Password change of the logged-in user. */
export default async function usersRoutes(app: FastifyInstance) {
  app.put<{ Body: ChangePasswordRequest; Reply: ChangePasswordResponse }>(
    apiPaths.changePassword,
    {
      onRequest: app.requireBearer, // before the body is read: no credentials, no parsing
      schema: {
        tags: ['account'],
        summary: 'Change the password; every other session of the user ends',
        operationId: 'changePassword',
        security: [{ bearer: [] }],
        consumes,
        body: changePasswordRequest,
        response: { 200: changePasswordResponse, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const user = await currentUser(app, request);
      const { old_password, new_password, confirm } = request.body;

      const errors: FieldErrors = {};
      // Counted as a failed login when wrong: a stolen access token must not become a password oracle.
      if (!(await checkOwnPassword(app, request.ip, user, old_password)))
        errors.old_password = [serverMessages.wrongOldPassword];
      const problems = passwordProblems(new_password, user);
      if (problems.length > 0) errors.new_password = problems;
      if (confirm !== new_password) errors.confirm = [serverMessages.passwordsDontMatch];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);

      const hash = await app.passwords.hash(new_password);
      // The new password and the end of every other session commit together: never one without the
      // other. Nor at all when, since the old password was checked, this session ended (a logout, a
      // reset: 401) or the password changed (a reset, another change: the old password is wrong now).
      // The user's row is written before the sessions', in the order a reset writes them.
      let refused: ApiError | undefined;
      const expiresAt = await commitUnlessNull(app.db, async (trx) => {
        const replaced = await replacePasswordHash(trx, user.id, user.password_hash, hash);
        const expires = await useLiveSession(trx, principal.sessionId);
        if (!expires) refused = httpErrors.tokenNotValid('Bearer');
        else if (!replaced) refused = httpErrors.fields({ old_password: [serverMessages.wrongOldPassword] });
        if (refused) return null;
        await endUserSessions(trx, user.id, principal.sessionId);
        // Links mailed before the new password die with it: an e-mail change asked for from a
        // stolen session, and a reset link.
        await useUpUserTokens(trx, 'email_change_tokens', user.id);
        await useUpUserTokens(trx, 'password_reset_tokens', user.id);
        const notice = securityNoticeMail(user.email, { kind: 'password-changed' }, noticeContext(app, request));
        await app.mailer.queue(notice, trx);
        return expires;
      });
      if (!expiresAt) throw refused!;
      app.mailer.wake();
      return { refresh: await app.sessions.refreshTokenOf(principal, expiresAt) };
    },
  );
}
