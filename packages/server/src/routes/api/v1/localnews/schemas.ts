import { badRequest, errorBody } from '../../../../schemas/errors.js';

/** JSON Schemas of the news calls: they document the API and drive fast-json-stringify. */

export const newsFile = {
  type: 'object',
  required: ['id', 'name', 'size', 'content_type', 'url'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', description: "The uploader's file name (metadata only)." },
    size: { type: 'integer', description: 'Bytes.' },
    content_type: { type: 'string', description: 'Sniffed from the bytes, not taken from the uploader.' },
    url: { type: 'string', description: 'Signed link, valid for about an hour; needs no Authorization header.' },
  },
} as const;

export const newsItem = {
  type: 'object',
  required: ['id', 'title', 'content', 'created_at', 'author', 'files'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    content: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    author: { type: 'string', description: "The author's e-mail." },
    files: { type: 'array', items: newsFile },
  },
} as const;

const authErrors = { 401: errorBody } as const;

export const listSchema = {
  summary: 'Every news item, newest first',
  tags: ['news'],
  security: [{ bearer: [] }],
  response: { 200: { type: 'array', items: newsItem }, ...authErrors },
};

export const createSchema = {
  summary: 'Add a news item with its files (all stored, or none)',
  tags: ['news'],
  security: [{ token: [] }],
  response: { 201: newsItem, 400: badRequest, 413: errorBody, 415: errorBody, ...authErrors },
};

/**
 * The multipart body, for the OpenAPI description only (see the route's swaggerTransform): the handler
 * streams it itself, so Ajv must never see it.
 */
export const uploadBodyDoc = {
  type: 'object',
  required: ['title', 'content', 'files'],
  properties: {
    title: { type: 'string' },
    content: { type: 'string' },
    files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'Repeat the field for each file.' },
  },
} as const;

export const fileSchema = {
  summary: 'Download an attachment by its signed link',
  tags: ['news'],
  params: { type: 'object', properties: { id: { type: 'string', description: 'File id.' } } },
  // No types: a malformed link must answer 404 like a bad signature, never a validation 400.
  querystring: {
    type: 'object',
    properties: { expires: { description: 'Unix time the link expires.' }, sig: { description: 'HMAC-SHA256, base64url.' } },
  },
  response: { 200: { description: 'The file, as an attachment.', type: 'string', format: 'binary' }, 404: errorBody },
};
