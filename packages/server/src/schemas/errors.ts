/**
 * JSON Schemas of the error answers (CONTRACT.md, section 2), for every route's `response`: they
 * document each status in the OpenAPI description and let fast-json-stringify serialize the answer.
 */

/** `{detail, code?}`: every error but field errors. */
export const errorBody = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' }, code: { type: 'string' } },
} as const;

/** `{field: ["message", …]}`; messages of no one field under `non_field_errors`. */
export const fieldErrors = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
} as const;

/** A 400 is field errors, or `{detail}` for a body that could not be parsed at all. */
export const badRequest = { description: 'Field errors, or a body that could not be parsed', anyOf: [errorBody, fieldErrors] } as const;

/** 401: no credentials, or a bad, expired or ended token (`code: token_not_valid`); with WWW-Authenticate. */
export const unauthorized = { ...errorBody, description: 'Not authenticated, or the token is not valid' } as const;

/** 429, with Retry-After (CONTRACT.md, section 5). */
export const throttled = { ...errorBody, description: 'Too many attempts; retry after Retry-After seconds' } as const;

/** The body types every POST/PUT accepts, as Django REST Framework's parsers did. */
export const consumes = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

/** Errors any call with a body can answer. */
export const bodyErrors = {
  400: badRequest,
  413: { ...errorBody, description: 'Body too large' },
  415: { ...errorBody, description: 'Unsupported media type' },
} as const;
