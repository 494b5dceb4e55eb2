import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serverMessages } from '@hello/contract';
import { lostInFlight } from '../../db/database.js';
import { ApiError, httpErrors, schemeOf } from '../../http-errors.js';
import { bodyStillArriving, closeAfterBody } from '../../lingering-close.js';
import { redactUrl } from '../../logger.js';
import { fieldErrorsFromValidation } from './validation-errors.js';

/**
 * One error contract end to end (docs/api.md, "Errors" and "Shapes"): field errors as `{field: [msg]}`,
 * everything else as `{detail, code?}`. Details of 5xx errors go to the log, never to the client.
 */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    endAfterBody(request, reply);
    // No route takes this method at this path, so its body is nobody's: Fastify still parses it with
    // the root's parsers (which have no multipart or url-encoded one: plugins/app/request-bodies.ts),
    // and a parser's refusal would hide the 404 or 405 that is the answer.
    if (request.is404 && error.code?.startsWith('FST_ERR_CTP_')) return notFound(request, reply);
    const answer =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? httpErrors.unsupportedMediaType(mediaType(request))
        : toApiError(error, request);
    if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else if (!(error instanceof ApiError))
      request.log.info({ code: error.code, status: answer.statusCode }, redactUrl(error.message));
    return send(reply, answer);
  });

  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const allowed = app.allowedMethods(request.url);
    if (allowed.length > 0) return send(reply, httpErrors.methodNotAllowed(request.method, allowed));
    // Outside the API a page path gets the web app, which shows its 404 page (plugins/app/web-app.ts).
    const page = app.hasDecorator('webAppNotFound') ? app.webAppNotFound(request, reply) : null;
    if (page) return page;
    return send(reply, httpErrors.notFound());
  }
  app.setNotFoundHandler(notFound);
});

/**
 * Fastify's own refusals before routing, which never reach the error handler and would answer in
 * Fastify's shape: a URL that does not decode (`%c0%ae`) and a path segment over maxParamLength. No
 * resource lives at such a path, so both are the API's 404 (docs/api.md, "Requests and answers": a
 * malformed id is 404; test/security/paths.test.ts sends both). Passed to Fastify() as
 * `frameworkErrors` in app.ts.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  endAfterBody(request, reply);
  // The message quotes the raw URL (a reset link's token, a signature): redacted as the request's is.
  request.log.info({ code: error.code }, redactUrl(error.message));
  const unroutable = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  return send(reply, unroutable ? httpErrors.notFound() : toApiError(error, request));
}

/**
 * A refusal made while the body is still arriving (over MAX_BODY_BYTES, a type no parser takes, a refused
 * upload): the rest of the body is nobody's, so the connection closes after the answer, but only once the
 * body has arrived or a bound is reached (lingering-close.ts), never with the client still sending
 * (test/reliability/over-limit-body.test.ts).
 */
function endAfterBody(request: FastifyRequest, reply: FastifyReply) {
  if (!bodyStillArriving(request.raw)) return;
  reply.header('connection', 'close');
  closeAfterBody(request.raw);
}

function send(reply: FastifyReply, error: ApiError) {
  return reply.code(error.statusCode).headers(error.headers).send(error.body);
}

/** Fastify's, its plugins' and the database driver's errors, mapped onto the contract. */
function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return httpErrors.fields(fieldErrorsFromValidation(error.validation));
  if (isDatabaseUnavailable(error)) return httpErrors.serviceUnavailable();
  // PostgreSQL refusing text it cannot store (a NUL, bytes invalid in UTF-8): the client's data, not our fault.
  if (error.code === '22021' || error.code === '22P05')
    return new ApiError(400, { detail: serverMessages.malformedBody });
  const status = error.statusCode ?? 500;
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return httpErrors.payloadTooLarge();
  }
  if (status === 413) return httpErrors.payloadTooLarge();
  // Every 401 names a challenge (RFC 9110, 15.5.2), the call's own as the OpenAPI document declares it.
  // None of the plugins refuses so today.
  if (status === 401) return httpErrors.notAuthenticated(schemeOf(routeSecurity(request)));
  if (status === 415) return httpErrors.unsupportedMediaType('');
  if (status >= 400 && status < 500) return new ApiError(status, { detail: safeClientMessage(status) });
  return new ApiError(500, { detail: serverMessages.serverError });
}

function routeSecurity(request: FastifyRequest): Record<string, unknown>[] | undefined {
  return (request.routeOptions.schema as { security?: Record<string, unknown>[] } | undefined)?.security;
}

/** The request's media type as Django REST Framework names it in a 415 (its parameters left out). */
function mediaType(request: FastifyRequest): string {
  const header = request.headers['content-type'] ?? '';
  return header.split(';')[0]!.trim().slice(0, 100);
}

function safeClientMessage(status: number): string {
  if (status === 400) return serverMessages.malformedBody;
  if (status === 404) return serverMessages.notFound;
  return `Request failed (${status}).`;
}

/** Beside a connection lost in flight (db/database.ts, lostInFlight): refused before anything ran. */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  '57P03',
  '53300',
  // A transaction PostgreSQL chose to undo (a deadlock, a serialization failure): nothing of it
  // stayed, and the same call again may well pass.
  '40P01',
  '40001',
]);

/**
 * PostgreSQL down, restarting or out of connections; SQLite locked beyond its busy timeout, or busy
 * in one of the ways it does not wait for (extended codes such as SQLITE_BUSY_RECOVERY).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (lostInFlight(error)) return true;
  const e = error as { code?: string; message?: string };
  if (e?.code && unavailableCodes.has(e.code)) return true;
  if (e?.code && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(e.code)) return true;
  return /timeout exceeded when trying to connect/i.test(e?.message ?? '');
}
