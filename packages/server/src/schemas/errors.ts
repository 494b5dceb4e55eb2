import { errorBody, fieldErrors } from '@hello/contract';

/**
 * The error answers of the routes' `response` schemas (their shapes are the contract's, error-bodies.ts):
 * they document each status in the OpenAPI description and let fast-json-stringify serialize the answer.
 * The headers that every answer of a status carries (WWW-Authenticate on 401, Retry-After on 429 and
 * 503) and the answers of every call (405, 500) are added to each call by plugins/app/openapi.ts.
 */

/**
 * `{detail, code?}` with the description of the status it answers (OpenAPI shows it as the response's).
 * Typed plainly: the spread copies TypeBox's symbol keys, whose types the declarations cannot name.
 */
export const errorAnswer = (description: string): object => ({ ...errorBody, description });

/** A 400 is field errors, or `{detail}` for a body that could not be parsed at all. */
export const badRequest = {
  description: 'Field errors, or a body that could not be parsed',
  anyOf: [errorBody, fieldErrors],
} as const;

/** 401: no credentials, or a bad, expired or ended token (`code: token_not_valid`); with WWW-Authenticate. */
export const unauthorized = errorAnswer('Not authenticated, or the token is not valid');

/** 429, with Retry-After (docs/api.md, "Limits"). */
export const throttled = errorAnswer('Too many attempts; retry after Retry-After seconds');

/** 503 (`code: service_unavailable`), with Retry-After: the database is away (docs/api.md, "Errors"). */
export const unavailable = errorAnswer('The database is away; retry after Retry-After seconds');

/** The body types every POST/PUT accepts, as Django REST Framework's parsers did. */
export const consumes = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

/** Errors any call with a body can answer. */
export const bodyErrors = {
  400: badRequest,
  413: errorAnswer('Body too large'),
  415: errorAnswer('Unsupported media type'),
} as const;
