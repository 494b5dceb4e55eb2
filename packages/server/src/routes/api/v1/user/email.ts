import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  changeEmailRequest,
  confirmEmailRequest,
  serverMessages,
  statusResponse,
  type ChangeEmailRequest,
  type ConfirmEmailRequest,
  type FieldErrors,
  type StatusResponse,
} from '@hello/contract';
import { confirmEmailChange, requestEmailChange } from '../../../../auth/email-change.js';
import { checkOwnPassword } from '../../../../auth/login.js';
import { httpErrors } from '../../../../http-errors.js';
import { emailKey } from '../../../../repositories/users.js';
import { bodyErrors, consumes, throttled, unauthorized, unavailable } from '../../../../schemas/errors.js';
import { noticeContext } from '../../../device-of.js';
import { currentUser } from '../../../current-user.js';

/** A change of the account's e-mail, which takes effect only through the link mailed to the new address. */
export default async function emailRoutes(app: FastifyInstance) {
  app.post<{ Body: ChangeEmailRequest; Reply: StatusResponse }>(
    apiPaths.changeEmail,
    {
      onRequest: app.requireBearer,
      schema: {
        tags: ['account'],
        summary:
          'Ask to change the e-mail: a confirmation link goes to the new address (or, if it has an account, a mail saying so: the same answer), a notice to the current one',
        operationId: 'requestEmailChange',
        security: [{ bearer: [] }],
        consumes,
        body: changeEmailRequest,
        response: { 200: statusResponse, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await currentUser(app, request);
      // The reset limit's numbers, per user and per client address: a count of its own, which strangers'
      // reset requests for the address do not fill.
      await app.rateLimits.consume('reset', { user: String(user.id), ip: request.ip });
      const { new_email, password } = request.body;
      const errors: FieldErrors = {};
      if (emailKey(new_email) === user.email_key) errors.new_email = [serverMessages.sameEmail];
      // Counted as a failed login when wrong, as a password change's old password is.
      if (!(await checkOwnPassword(app, request.ip, user, password))) errors.password = [serverMessages.wrongPassword];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);
      const { sessionId } = request.principal!;
      await requestEmailChange(app, user, sessionId, new_email, noticeContext(app, request), request.log);
      return { status: 'OK' as const };
    },
  );

  app.post<{ Body: ConfirmEmailRequest; Reply: StatusResponse }>(
    apiPaths.confirmEmail,
    {
      schema: {
        tags: ['account'],
        summary: "Confirm an e-mail change by its link's token (single use); the account takes the new address",
        operationId: 'confirmEmailChange',
        security: [],
        consumes,
        body: confirmEmailRequest,
        response: { 200: statusResponse, 404: statusResponse, ...bodyErrors, 503: unavailable },
      },
    },
    async (request, reply) => {
      if (await confirmEmailChange(app, request.body.token, noticeContext(app, request)))
        return { status: 'OK' as const };
      return reply.code(404).send({ status: 'notfound' });
    },
  );
}
