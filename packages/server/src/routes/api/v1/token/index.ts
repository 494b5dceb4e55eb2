import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  accessToken,
  apiPaths,
  loginRequest,
  mfaRequest,
  mfaRequired,
  refreshRequest,
  tokenPair,
  type AccessToken,
  type LoginRequest,
  type MfaRequest,
  type MfaRequired,
  type RefreshRequest,
  type TokenPair,
} from '@hello/contract';
import { checkCredentials, loginAttempt } from '../../../../auth/login.js';
import { signIn } from '../../../../auth/sign-in.js';
import type { ParsedCode } from '../../../../auth/two-step.js';
import type { Database, UserRow } from '../../../../db/schema.js';
import { httpErrors } from '../../../../http-errors.js';
import { securityNoticeMail, type NoticeContext } from '../../../../mail/security-notices.js';
import { sessionExists } from '../../../../repositories/sessions.js';
import { findUserById } from '../../../../repositories/users.js';
import { bodyErrors, consumes, unauthorized, throttled, unavailable } from '../../../../schemas/errors.js';
import { deviceOf, noticeContext } from '../../../device-of.js';

/** Spends a login's parsed code in `trx`, queuing the notice of a recovery code; false when it cannot be. */
function spendCodeWith(app: FastifyInstance, user: UserRow, parsed: ParsedCode, context: NoticeContext) {
  return async (trx: Kysely<Database>): Promise<boolean> => {
    if (!(await app.twoStep.useParsed(trx, user.id, parsed))) return false;
    if (parsed.kind === 'recovery') {
      const left = await app.twoStep.recoveryCodesLeft(trx, user.id);
      await app.mailer.queue(securityNoticeMail(user.email, { kind: 'recovery-code-used', left }, context), trx);
    }
    return true;
  };
}

/** JWT login and refresh, as djangorestframework-simplejwt answered them. */
export default async function tokenRoutes(app: FastifyInstance) {
  app.post<{ Body: LoginRequest; Reply: TokenPair | MfaRequired }>(
    apiPaths.token,
    {
      schema: {
        tags: ['auth'],
        summary:
          'Log in: a new session, its access token and its refresh token; for an account with two-step sign-in, an `mfa_token` for POST /api/v1/token/mfa/ instead',
        operationId: 'logIn',
        security: [],
        consumes,
        body: loginRequest,
        response: {
          200: { description: 'The tokens, or the second step asked for', anyOf: [tokenPair, mfaRequired] },
          ...bodyErrors,
          401: unauthorized,
          429: throttled,
          503: unavailable,
        },
      },
    },
    async (request) => {
      const user = await checkCredentials(app, request.ip, request.body.email, request.body.password);
      // One answer for an unknown e-mail and a wrong password: nothing tells which it was.
      if (!user) throw httpErrors.noActiveAccount();
      // Two-step sign-in: the password was right; the code comes next, with this token.
      if (user.totp_secret) return { mfa_required: true as const, mfa_token: app.twoStep.mfaToken(user) };
      const started = await signIn(app, user, noticeContext(app, request));
      // Deleted, or its password changed, since its password was checked.
      if (!started) throw httpErrors.noActiveAccount();
      // Two-step sign-in turned on since the row was read: no session without the code.
      if ('twoStep' in started)
        return { mfa_required: true as const, mfa_token: app.twoStep.mfaToken(started.twoStep) };
      app.metrics.login('success');
      return { access: started.access, refresh: started.refresh };
    },
  );

  app.post<{ Body: MfaRequest; Reply: TokenPair }>(
    apiPaths.tokenMfa,
    {
      schema: {
        tags: ['auth'],
        summary:
          "A login's second step: the `mfa_token` of its first and a code of the authenticator app (or a recovery code)",
        operationId: 'logInWithCode',
        security: [],
        consumes,
        body: mfaRequest,
        response: { 200: tokenPair, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      // One sign-in per token, and only while the password and secret are those it was given for.
      const claims = app.twoStep.mfaClaims(request.body.mfa_token);
      const user = claims === null ? undefined : await findUserById(app.db, claims.userId);
      if (!claims || !user || !app.twoStep.mfaTokenFits(user, claims.binding)) throw httpErrors.mfaInvalid();
      if (await sessionExists(app.db, claims.sessionId)) throw httpErrors.mfaInvalid();
      // A step refused for its code, or as the other of two at once, counts against the login limit.
      const ticket = await loginAttempt(app, { account: user.email_key, ip: request.ip });
      const refused = () => {
        app.metrics.login('failure');
        return httpErrors.mfaInvalid();
      };
      const parsed = await app.twoStep.parseCode(user, request.body.code);
      if (!parsed) throw refused();
      const context = noticeContext(app, request);
      // Spent in the session's transaction: of two code steps of one token at once (another request,
      // or instance), the one that does not start the session leaves its code unspent.
      const spendCode = spendCodeWith(app, user, parsed, context);
      const started = await signIn(app, user, context, { sessionId: claims.sessionId, spendCode });
      // Its code refused, the same token's other code step signed in meanwhile, or the account is gone.
      if (!started) throw refused();
      if (parsed.kind === 'recovery') app.mailer.wake();
      await ticket.refund();
      // A password reset, a new password or a new secret may have committed since the row was read:
      // read it again now that the session exists, and end the session if the token no longer fits.
      // A reset or password change that commits after this read ends the session itself.
      const current = await findUserById(app.db, user.id);
      if (!current || !app.twoStep.mfaTokenFits(current, claims.binding)) {
        await app.sessions.end(started.sessionId);
        throw httpErrors.mfaInvalid();
      }
      app.metrics.login('success');
      return { access: started.access, refresh: started.refresh };
    },
  );

  app.post<{ Body: RefreshRequest; Reply: AccessToken }>(
    apiPaths.tokenRefresh,
    {
      schema: {
        tags: ['auth'],
        summary: 'A new access token for the refresh token of a live session',
        operationId: 'refreshAccessToken',
        security: [],
        consumes,
        body: refreshRequest,
        response: { 200: accessToken, ...bodyErrors, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => {
      const access = await app.sessions.refresh(request.body.refresh, deviceOf(request));
      if (!access) throw httpErrors.tokenNotValid('Bearer'); // a token in the body: Bearer, as SimpleJWT's views
      return { access };
    },
  );
}
