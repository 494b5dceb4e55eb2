import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  apiTokenAuthRequest,
  apiTokenAuthResponse,
  errorBody,
  jwtLogoutRequest,
  jwtLogoutResponse,
  logoutResponse,
  registrationRequest,
  registrationResponse,
  serverMessages,
  type ApiTokenAuthRequest,
  type ApiTokenAuthResponse,
  type FieldErrors,
  type JwtLogoutRequest,
  type JwtLogoutResponse,
  type LogoutResponse,
  type RegistrationRequest,
  type RegistrationResponse,
} from '@hello/contract';
import { checkCredentials } from '../../../../auth/login.js';
import { passwordProblems } from '../../../../auth/password-rules.js';
import { emailProblems, register } from '../../../../auth/registration.js';
import { signIn } from '../../../../auth/sign-in.js';
import { httpErrors } from '../../../../http-errors.js';
import { bodyErrors, consumes, unauthorized, throttled, unavailable } from '../../../../schemas/errors.js';
import { deviceOf, noticeContext } from '../../../device-of.js';

/** Registration, both logouts and the legacy token login, as dj-rest-auth answered them. */
export default async function restAuthRoutes(app: FastifyInstance) {
  app.post<{ Body: RegistrationRequest; Reply: RegistrationResponse }>(
    apiPaths.registration,
    {
      schema: {
        tags: ['auth'],
        summary:
          'Create an account; `key` is the refresh token of its first session (400 when the e-mail has an account)',
        operationId: 'register',
        security: [],
        consumes,
        body: registrationRequest,
        response: { 201: registrationResponse, ...bodyErrors, 429: throttled, 503: unavailable },
      },
    },
    async (request, reply) => {
      await app.rateLimits.consume('register', { ip: request.ip });
      const { email, password1, password2 } = request.body;
      const errors: FieldErrors = {};
      // Every field that failed at once (docs/api.md), the address's own check included.
      const taken = await emailProblems(app, email);
      if (taken.length > 0) errors.email = taken;
      const problems = passwordProblems(password1, { email });
      if (problems.length > 0) errors.password1 = problems;
      // dj-rest-auth reports the mismatch under non_field_errors.
      if (password1 !== password2) errors.non_field_errors = [serverMessages.passwordsDontMatch];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);
      return reply.code(201).send({ key: await register(app, email, password1, deviceOf(request)) });
    },
  );

  app.post<{ Reply: LogoutResponse }>(
    apiPaths.logout,
    {
      onRequest: app.requireToken, // before the body is read: no credentials, no parsing
      schema: {
        tags: ['auth'],
        summary: 'Log out the session of the `Token` (the stored refresh token)',
        operationId: 'logOut',
        security: [{ token: [] }],
        response: { 200: logoutResponse, 400: errorBody, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => {
      await app.sessions.end(request.principal!.sessionId);
      return { detail: serverMessages.loggedOut };
    },
  );

  app.post<{ Body: JwtLogoutRequest; Reply: JwtLogoutResponse }>(
    apiPaths.jwtLogout,
    {
      schema: {
        tags: ['auth'],
        summary: 'Log out the session of a refresh token',
        operationId: 'logOutRefreshToken',
        security: [],
        consumes,
        body: jwtLogoutRequest,
        response: { 200: jwtLogoutResponse, ...bodyErrors, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => {
      const principal = await app.sessions.authenticate(request.body.refresh, 'refresh');
      if (!principal) throw httpErrors.tokenNotValid('Bearer'); // a token in the body: Bearer, as SimpleJWT's views
      await app.sessions.end(principal.sessionId);
      return {};
    },
  );

  app.post<{ Body: ApiTokenAuthRequest; Reply: ApiTokenAuthResponse }>(
    apiPaths.apiTokenAuth,
    {
      schema: {
        tags: ['auth'],
        summary: 'Legacy login (`username` is the e-mail); `token` is a refresh token of a new session',
        operationId: 'logInLegacy',
        security: [],
        consumes,
        body: apiTokenAuthRequest,
        response: { 200: apiTokenAuthResponse, ...bodyErrors, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await checkCredentials(app, request.ip, request.body.username, request.body.password);
      if (!user) throw httpErrors.fields({ non_field_errors: [serverMessages.unableToLogIn] });
      // This legacy login has no second step: an account with two-step sign-in logs in by /api/v1/token/.
      if (user.totp_secret) throw httpErrors.fields({ non_field_errors: [serverMessages.totpLegacyLogin] });
      const started = await signIn(app, user, noticeContext(app, request));
      // Deleted, or its password changed, since its password was checked: the answer of a wrong password.
      if (!started) throw httpErrors.fields({ non_field_errors: [serverMessages.unableToLogIn] });
      // Two-step sign-in turned on since the row was read: refused as for such an account.
      if ('twoStep' in started) throw httpErrors.fields({ non_field_errors: [serverMessages.totpLegacyLogin] });
      app.metrics.login('success');
      return { token: started.refresh };
    },
  );
}
