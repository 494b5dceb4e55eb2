import { errorBody, newsItem, newsLimits, newsUpdateRequest } from '@hello/contract';
import { badRequest, errorAnswer, unavailable } from '../../../../schemas/errors.js';
import { responseHeaders } from '../../../../schemas/headers.js';

/**
 * JSON Schemas of the news calls: they document the API and drive fast-json-stringify. The bodies are
 * the contract's (news-bodies.ts); what is here is the routes' own: summaries, parameters, statuses.
 */

const authErrors = { 401: errorBody, 503: unavailable } as const;
const forbidden = errorAnswer("Not the item's author");
const itemParams = { type: 'object', properties: { id: { type: 'string', description: 'News item id.' } } } as const;

export const listSchema = {
  summary: 'News items, newest first, a page at a time',
  description:
    'When older items exist, the `Link` header names the next page (`rel="next"`); follow it as it is: the cursor is opaque.',
  tags: ['news'],
  operationId: 'listNews',
  security: [{ bearer: [] }],
  querystring: {
    type: 'object',
    properties: {
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: newsLimits.maxPageSize,
        default: newsLimits.defaultPageSize,
        description: 'Items per page.',
      },
      before: { type: 'string', description: "Opaque cursor from the previous page's `Link` header." },
    },
  },
  response: {
    200: {
      description: 'A page of news items, newest first.',
      type: 'array',
      items: newsItem,
      headers: { Link: responseHeaders.link },
    },
    400: badRequest,
    ...authErrors,
  },
};

export const itemSchema = {
  summary: 'One news item',
  tags: ['news'],
  operationId: 'getNewsItem',
  security: [{ bearer: [] }],
  params: itemParams,
  response: { 200: newsItem, ...authErrors, 404: errorBody },
};

export const editSchema = {
  summary: 'Edit a news item (its author): title, content, files added and removed; it keeps at least one file',
  tags: ['news'],
  operationId: 'updateNewsItem',
  security: [{ bearer: [] }],
  params: itemParams,
  response: {
    200: newsItem,
    400: badRequest,
    ...authErrors,
    403: forbidden,
    404: errorBody,
    413: errorBody,
    415: errorBody,
  },
};

export const deleteSchema = {
  summary: 'Delete a news item (its author) with its files',
  tags: ['news'],
  operationId: 'deleteNewsItem',
  security: [{ bearer: [] }],
  params: itemParams,
  response: { 204: { description: 'Deleted.', type: 'null' }, ...authErrors, 403: forbidden, 404: errorBody },
};

export const createSchema = {
  summary: 'Add a news item with its files (all stored, or none)',
  tags: ['news'],
  operationId: 'createNewsItem',
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
    files: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      description: 'Repeat the field for each file.',
    },
  },
} as const;

/**
 * The edit's body, for the OpenAPI description only (the handler reads it itself, as the upload's): the
 * contract's fields, and the files to add.
 */
export const editBodyDoc = {
  type: 'object',
  properties: {
    title: newsUpdateRequest.properties.title,
    content: newsUpdateRequest.properties.content,
    files: {
      type: 'array',
      items: { type: 'string', format: 'binary' },
      description: 'Files to add; repeat the field for each.',
    },
    remove_files: newsUpdateRequest.properties.remove_files,
  },
} as const;

const binary = { type: 'string', format: 'binary' } as const;

/**
 * The attachment, GET and HEAD (each its own operation). Any media type: its type is the one sniffed
 * from its bytes when it was stored (HTML and SVG as text/plain), never JSON.
 */
const fileDownload = {
  tags: ['news'],
  description: 'A plain link with no `Authorization` header: its signature is the permission.',
  security: [],
  params: { type: 'object', properties: { id: { type: 'string', description: 'File id.' } } },
  // No types: a malformed link must answer 404 like a bad signature, never a validation 400.
  querystring: {
    type: 'object',
    properties: {
      expires: { description: 'Unix time the link expires.' },
      sig: { description: 'HMAC-SHA256, base64url.' },
    },
  },
  response: {
    200: {
      description: 'The file, as an attachment, in the type sniffed from its bytes when stored.',
      content: { '*/*': { schema: binary } },
      headers: { 'Content-Disposition': responseHeaders.contentDisposition },
    },
    404: errorAnswer('An unknown or deleted file, or an expired, altered or borrowed signature'),
    503: unavailable,
  },
};

export const fileSchema = {
  ...fileDownload,
  summary: 'Download an attachment by its signed link',
  operationId: 'downloadNewsAttachment',
};

export const fileHeadSchema = {
  ...fileDownload,
  summary: "An attachment's headers, without its bytes",
  operationId: 'getNewsAttachmentHeaders',
};
