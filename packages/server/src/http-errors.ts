import { errorCodes, serverMessages, type ErrorBody, type FieldErrors } from '@hello/contract';

/**
 * The one error type handlers throw. The central error handler (plugins/app/errors.ts) answers it
 * as is; anything else becomes a safe generic answer.
 */
export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly body: ErrorBody | FieldErrors,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

/** A call's authorization scheme, which its 401s name as their challenge (docs/api.md, "Errors"). */
export type AuthScheme = 'Bearer' | 'Token';
/** The `WWW-Authenticate` value a 401 of that scheme carries (the OpenAPI document declares it too). */
export const challengeValue = (scheme: AuthScheme) => `${scheme} realm="api"`;
const challenge = (scheme: AuthScheme) => ({ 'WWW-Authenticate': challengeValue(scheme) });

/**
 * The scheme of a call by its route schema's OpenAPI `security`: Token where it names the `token`
 * scheme, Bearer for every other call, those that take a token in their body among them.
 */
export const schemeOf = (security: readonly Record<string, unknown>[] | undefined): AuthScheme =>
  security?.some((requirement) => 'token' in requirement) ? 'Token' : 'Bearer';

export const httpErrors = {
  /** 400 `{field: [messages]}`; messages of no one field go under `non_field_errors`. */
  fields: (errors: FieldErrors) => new ApiError(400, errors),
  field: (field: string, message: string) => new ApiError(400, { [field]: [message] }),
  notAuthenticated: (scheme: AuthScheme) =>
    new ApiError(401, { detail: serverMessages.credentialsNotProvided }, challenge(scheme)),
  tokenNotValid: (scheme: AuthScheme) =>
    new ApiError(401, { detail: serverMessages.tokenNotValid, code: errorCodes.tokenNotValid }, challenge(scheme)),
  /** A login's second step refused: a wrong or used code, or an `mfa_token` that is not good (any more). */
  mfaInvalid: () =>
    new ApiError(401, { detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid }, challenge('Bearer')),
  noActiveAccount: () => new ApiError(401, { detail: serverMessages.noActiveAccount }, challenge('Bearer')),
  permissionDenied: () => new ApiError(403, { detail: serverMessages.permissionDenied }),
  notFound: () => new ApiError(404, { detail: serverMessages.notFound }),
  methodNotAllowed: (method: string, allow: string[]) =>
    new ApiError(405, { detail: serverMessages.methodNotAllowed(method) }, { Allow: allow.join(', ') }),
  payloadTooLarge: (detail: string = serverMessages.bodyTooLarge) => new ApiError(413, { detail }),
  unsupportedMediaType: (type: string) => new ApiError(415, { detail: serverMessages.unsupportedMediaType(type) }),
  throttled: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      { detail: serverMessages.throttled(retryAfterSeconds), code: errorCodes.throttled },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  serviceUnavailable: () =>
    new ApiError(
      503,
      { detail: serverMessages.serviceUnavailable, code: errorCodes.serviceUnavailable },
      { 'Retry-After': '5' },
    ),
};
