import type { FastifyInstance } from 'fastify';
import { apiPaths, deleteAccountRequest, serverMessages, type DeleteAccountRequest } from '@hello/contract';
import { deleteAccount } from '../../../../auth/account-deletion.js';
import { checkOwnPassword } from '../../../../auth/login.js';
import { httpErrors } from '../../../../http-errors.js';
import { bodyErrors, consumes, throttled, unauthorized, unavailable } from '../../../../schemas/errors.js';
import { noticeContext } from '../../../device-of.js';
import { currentUser } from '../../../current-user.js';

/** Deleting the account, with the password: everything of it goes (auth/account-deletion.ts). */
export default async function deleteAccountRoutes(app: FastifyInstance) {
  app.post<{ Body: DeleteAccountRequest }>(
    apiPaths.deleteAccount,
    {
      onRequest: app.requireBearer,
      schema: {
        tags: ['account'],
        summary:
          'Delete the account with its profile, sessions, tokens, news items and files; the e-mail can register again',
        operationId: 'deleteAccount',
        security: [{ bearer: [] }],
        consumes,
        body: deleteAccountRequest,
        response: {
          204: { description: 'Deleted.', type: 'null' },
          ...bodyErrors,
          401: unauthorized,
          429: throttled,
          503: unavailable,
        },
      },
    },
    async (request, reply) => {
      const user = await currentUser(app, request);
      // A wrong password counts as a failed login: a stolen access token must not delete an account.
      if (!(await checkOwnPassword(app, request.ip, user, request.body.password)))
        throw httpErrors.fields({ password: [serverMessages.wrongPassword] });
      await deleteAccount(app, user, request.principal!.sessionId, noticeContext(app, request));
      return reply.code(204).send();
    },
  );
}
