import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  apiPaths,
  resetConfirmRequest,
  resetRequest,
  serverMessages,
  statusResponse,
  validateResetTokenRequest,
  type FieldErrors,
  type ResetConfirmRequest,
  type ResetRequest,
  type StatusResponse,
  type ValidateResetTokenRequest,
} from '@hello/contract';
import { noticeContext } from '../../device-of.js';
import { completeReset, findResetToken, requestReset } from '../../../auth/password-reset.js';
import { passwordProblems } from '../../../auth/password-rules.js';
import { isSafeResetPath } from '../../../auth/reset-tokens.js';
import { httpErrors } from '../../../http-errors.js';
import { fieldErrorsFromValidation } from '../../../plugins/app/validation-errors.js';
import { bodyErrors, consumes, throttled, unavailable } from '../../../schemas/errors.js';

const ok: StatusResponse = { status: 'OK' };
const notFound = (reply: FastifyReply) => reply.code(404).send({ status: 'notfound' } satisfies StatusResponse);

/** Password reset by e-mail, as django-rest-passwordreset answered it. */
export default async function passwordResetRoutes(app: FastifyInstance) {
  app.post<{ Body: ResetRequest; Reply: StatusResponse }>(
    apiPaths.passwordReset,
    {
      schema: {
        tags: ['password reset'],
        summary: 'Mail a reset link to the account, if there is one; the answer is the same either way',
        operationId: 'requestPasswordReset',
        security: [],
        consumes,
        body: resetRequest,
        response: { 200: statusResponse, ...bodyErrors, 429: throttled, 503: unavailable },
      },
      // The path's own rule is checked beside the schema's, so that every field that failed is
      // answered at once (a bad e-mail and a bad path both), as Django REST Framework answered.
      attachValidation: true,
    },
    async (request) => {
      const errors = request.validationError ? fieldErrorsFromValidation(request.validationError.validation) : {};
      const path: unknown = (request.body as Partial<ResetRequest> | null | undefined)?.reset_new_password_path;
      if (typeof path === 'string' && !errors.reset_new_password_path && !isSafeResetPath(path))
        errors.reset_new_password_path = [serverMessages.invalidPath];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);
      const { email, reset_new_password_path } = request.body;
      const rest = await requestReset(app, request.ip, email, reset_new_password_path, request.log);
      if (rest) app.afterAnswer.run(rest, request.log, 'password reset: the token and its mail were not stored');
      return ok;
    },
  );

  app.post<{ Body: ValidateResetTokenRequest; Reply: StatusResponse }>(
    apiPaths.passwordResetValidateToken,
    {
      schema: {
        tags: ['password reset'],
        summary: 'Is this reset token usable (known, unused, unexpired)?',
        operationId: 'validatePasswordResetToken',
        security: [],
        consumes,
        body: validateResetTokenRequest,
        response: { 200: statusResponse, 404: statusResponse, ...bodyErrors, 503: unavailable },
      },
    },
    async (request, reply) => ((await findResetToken(app, request.body.token)) ? ok : notFound(reply)),
  );

  app.post<{ Body: ResetConfirmRequest; Reply: StatusResponse }>(
    apiPaths.passwordResetConfirm,
    {
      schema: {
        tags: ['password reset'],
        summary: 'Set a new password with a reset token; the token is used up and every session of the user ends',
        operationId: 'confirmPasswordReset',
        security: [],
        consumes,
        body: resetConfirmRequest,
        response: { 200: statusResponse, 404: statusResponse, ...bodyErrors, 503: unavailable },
      },
    },
    async (request, reply) => {
      const row = await findResetToken(app, request.body.token);
      if (!row) return notFound(reply);
      const errors: FieldErrors = {};
      const problems = passwordProblems(request.body.password, row);
      if (problems.length > 0) errors.password = problems;
      if (request.body.confirm !== request.body.password) errors.confirm = [serverMessages.passwordsDontMatch];
      if (Object.keys(errors).length > 0) throw httpErrors.fields(errors);
      // A concurrent confirm with the same token may have won meanwhile: then this one is "not found".
      return (await completeReset(app, row, request.body.password, noticeContext(app, request))) ? ok : notFound(reply);
    },
  );
}
