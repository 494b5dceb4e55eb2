import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  serverMessages,
  statusResponse,
  totpConfirmRequest,
  totpConfirmResponse,
  totpDisableRequest,
  totpSetupRequest,
  totpSetupResponse,
  totpStatus,
  type StatusResponse,
  type TotpConfirmRequest,
  type TotpConfirmResponse,
  type TotpDisableRequest,
  type TotpSetupRequest,
  type TotpSetupResponse,
  type TotpStatus,
} from '@hello/contract';
import { checkOwnPassword, ownAttempt, ownPasswordAttempt } from '../../../../auth/login.js';
import { httpErrors } from '../../../../http-errors.js';
import { securityNoticeMail } from '../../../../mail/security-notices.js';
import { endUserSessions } from '../../../../repositories/sessions.js';
import { bodyErrors, consumes, throttled, unauthorized, unavailable } from '../../../../schemas/errors.js';
import { noticeContext } from '../../../device-of.js';
import { currentUser } from '../../../current-user.js';

/** Two-step sign-in of the caller's account: whether it is on, setting it up, turning it off. */
export default async function twoStepRoutes(app: FastifyInstance) {
  const auth = { onRequest: app.requireBearer };
  const security = [{ bearer: [] }];

  app.get<{ Reply: TotpStatus }>(
    apiPaths.totp,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: 'Whether two-step sign-in is on, and how many recovery codes are left',
        operationId: 'getTwoStepStatus',
        security,
        response: { 200: totpStatus, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => app.twoStep.status(request.principal!.userId),
  );

  app.post<{ Body: TotpSetupRequest; Reply: TotpSetupResponse }>(
    apiPaths.totpSetup,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: 'Start setting up two-step sign-in: a new secret, not in use until a first code confirms it',
        operationId: 'setUpTwoStep',
        security,
        consumes,
        body: totpSetupRequest,
        response: { 200: totpSetupResponse, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await currentUser(app, request);
      if (!(await checkOwnPassword(app, request.ip, user, request.body.password)))
        throw httpErrors.fields({ password: [serverMessages.wrongPassword] });
      if (user.totp_secret) throw httpErrors.fields({ non_field_errors: [serverMessages.totpAlreadyOn] });
      return app.twoStep.setUp(user, request.principal!.sessionId);
    },
  );

  app.post<{ Body: TotpConfirmRequest; Reply: TotpConfirmResponse }>(
    apiPaths.totpConfirm,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary:
          'Turn two-step sign-in on with a first code: ten single-use recovery codes, shown once; every other session ends',
        operationId: 'confirmTwoStep',
        security,
        consumes,
        body: totpConfirmRequest,
        response: { 200: totpConfirmResponse, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await currentUser(app, request);
      if (user.totp_secret) throw httpErrors.fields({ non_field_errors: [serverMessages.totpAlreadyOn] });
      // A wrong code counts as a failed login, as when turning it off: whoever holds a session could
      // otherwise try the pending secret's codes one after another, and turn it on with a secret
      // and recovery codes only they have.
      const ticket = await ownAttempt(app, request.ip, user);
      const context = noticeContext(app, request);
      const sessionId = request.principal!.sessionId;
      const result = await app.twoStep.confirm(user, request.body.code, sessionId, async (trx) => {
        await endUserSessions(trx, user.id, request.principal!.sessionId);
        await app.mailer.queue(securityNoticeMail(user.email, { kind: 'two-step-on' }, context), trx);
      });
      if (result === 'invalid') throw httpErrors.fields({ code: [serverMessages.invalidCode] });
      // Turned on already: the codes, shown this once, must reach the user whatever the refund does.
      await ticket
        .refund()
        .catch((error: unknown) => request.log.warn({ err: error }, 'a login count was not taken back'));
      if (result === 'not-set-up') throw httpErrors.fields({ code: [serverMessages.totpNotSetUp] });
      app.mailer.wake();
      return { recovery_codes: result };
    },
  );

  app.post<{ Body: TotpDisableRequest; Reply: StatusResponse }>(
    apiPaths.totpDisable,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: 'Turn two-step sign-in off, with the password and a code (or a recovery code)',
        operationId: 'disableTwoStep',
        security,
        consumes,
        body: totpDisableRequest,
        response: { 200: statusResponse, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await currentUser(app, request);
      if (!user.totp_secret) throw httpErrors.fields({ non_field_errors: [serverMessages.totpNotOn] });
      // The code is checked, and used up, only when the password is right; a wrong code counts as a
      // failed login, as at a login's code step, so the codes cannot be tried one after another by
      // whoever holds a session and the password.
      const attempt = await ownPasswordAttempt(app, request.ip, user, request.body.password);
      if (!attempt.ok) throw httpErrors.fields({ password: [serverMessages.wrongPassword] });
      const context = noticeContext(app, request);
      const parsed = await app.twoStep.parseCode(user, request.body.code);
      const done =
        parsed !== null &&
        (await app.twoStep.turnOff(user, parsed, request.principal!.sessionId, (trx) =>
          app.mailer.queue(securityNoticeMail(user.email, { kind: 'two-step-off' }, context), trx),
        ));
      if (!done) throw httpErrors.fields({ code: [serverMessages.invalidCode] });
      await attempt.succeeded();
      app.mailer.wake();
      return { status: 'OK' as const };
    },
  );
}
