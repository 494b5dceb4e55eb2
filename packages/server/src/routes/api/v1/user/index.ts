import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  profile,
  profileUpdateRequest,
  profileUpdateResponse,
  serverMessages,
  type FieldErrors,
  type Profile,
  type ProfileUpdateRequest,
  type ProfileUpdateResponse,
} from '@hello/contract';
import { commitUnlessNull } from '../../../../db/commit-unless-null.js';
import { httpErrors } from '../../../../http-errors.js';
import { useLiveSession } from '../../../../repositories/sessions.js';
import { toProfile, updateProfile } from '../../../../repositories/users.js';
import { bodyErrors, consumes, unauthorized, unavailable } from '../../../../schemas/errors.js';
import { currentUser } from '../../../current-user.js';
import deleteAccountRoutes from './delete.js';
import emailRoutes from './email.js';
import exportRoutes from './export.js';
import sessionRoutes from './sessions.js';
import twoStepRoutes from './two-step.js';

/**
 * The logged-in user's profile, and the account center's calls (one file each). The e-mail is
 * read-only here: sent or not, it is never changed by the profile (email.ts changes it).
 */
export default async function userRoutes(app: FastifyInstance) {
  await app.register(sessionRoutes);
  await app.register(emailRoutes);
  await app.register(exportRoutes);
  await app.register(deleteAccountRoutes);
  await app.register(twoStepRoutes);

  app.get<{ Reply: Profile }>(
    apiPaths.userProfile,
    {
      onRequest: app.requireBearer,
      schema: {
        tags: ['account'],
        summary: 'The profile of the logged-in user',
        operationId: 'getProfile',
        security: [{ bearer: [] }],
        response: { 200: profile, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => toProfile(await currentUser(app, request)),
  );

  app.post<{ Body: ProfileUpdateRequest; Reply: ProfileUpdateResponse }>(
    apiPaths.userProfile,
    {
      onRequest: app.requireBearer, // before the body is read: no credentials, no parsing
      schema: {
        tags: ['account'],
        summary: 'Save the profile (multipart with dotted names, or nested JSON); absent optional fields become ""',
        operationId: 'updateProfile',
        security: [{ bearer: [] }],
        consumes,
        body: profileUpdateRequest,
        response: { 200: profileUpdateResponse, ...bodyErrors, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => {
      const principal = request.principal!;
      await currentUser(app, request);
      // Surrounding spaces are dropped, as Django REST Framework's CharField does.
      const first_name = request.body.first_name.trim();
      const last_name = request.body.last_name.trim();
      const errors: FieldErrors = {};
      if (!first_name) errors.first_name = [serverMessages.blank];
      if (!last_name) errors.last_name = [serverMessages.blank];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);

      const details = request.body.user_profile ?? {};
      const user_profile = {
        telephone: details.telephone?.trim() ?? '',
        mobile: details.mobile?.trim() ?? '',
        website: details.website?.trim() ?? '',
      };
      // Saved only while the session lives (a logout at the same moment: 401, nothing saved); the
      // user's row is written before the session's, in the order a password reset writes them.
      const expiresAt = await commitUnlessNull(app.db, async (trx) => {
        await updateProfile(trx, principal.userId, { first_name, last_name, user_profile });
        return (await useLiveSession(trx, principal.sessionId)) ?? null;
      });
      if (!expiresAt) throw httpErrors.tokenNotValid('Bearer');
      return {
        user_info: toProfile(await currentUser(app, request)),
        refresh: await app.sessions.refreshTokenOf(principal, expiresAt),
      };
    },
  );
}
