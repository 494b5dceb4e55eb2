import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiPaths, errorBody } from '@hello/contract';
import { challengeValue, schemeOf } from '../../http-errors.js';
import { responseHeaders } from '../../schemas/headers.js';
import apiDocs from './api-docs.js';

/**
 * The route `config` of a HEAD route of its own: @fastify/swagger leaves HEAD routes out unless told,
 * and names their operation `<operationId>-head` (completeDocument takes that suffix off again: such a
 * route's schema has an operationId of its own).
 */
export const exposeHead = { swagger: { exposeHeadRoute: true } };

/** The answers every call can give, written once and referred to by each operation. */
const errorContent = { 'application/json': { schema: errorBody } };
const sharedResponses = {
  MethodNotAllowed: {
    description:
      'The answer of this path to any method it does not take (docs/api.md, "Errors"): `Allow` lists the ones it takes.',
    headers: { Allow: asHeader(responseHeaders.allow) },
    content: errorContent,
  },
  ServerError: {
    description: 'Anything unexpected; the details go to the server log, never to the client.',
    content: errorContent,
  },
};

/**
 * The headers every answer of a status carries, whatever the call (plugins/app/errors.ts, http-errors.ts);
 * a 401's challenge is the operation's own (challengeOf).
 */
const headersByStatus: Record<string, Record<string, object>> = {
  429: { 'Retry-After': asHeader(responseHeaders.retryAfter) },
  503: { 'Retry-After': asHeader(responseHeaders.retryAfter) },
};

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { $ref?: string; headers?: Record<string, Header> }>;
}
interface Header {
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

/**
 * A 401's `WWW-Authenticate` as the operation answers it: `Token` where it takes the `token` scheme,
 * `Bearer` everywhere else, the calls that take their token in the body among them (http-errors.ts).
 */
function challengeOf(operation: Operation): Header {
  const value = challengeValue(schemeOf(operation.security));
  return { description: `\`${value}\`.`, required: true, schema: { type: 'string', enum: [value] } };
}

/** A header of schemas/headers.ts as an OpenAPI header object. */
function asHeader({
  description,
  'x-required': required,
  ...schema
}: (typeof responseHeaders)[keyof typeof responseHeaders]): Header {
  return { description, required, schema };
}

/**
 * What the route schemas cannot say one call at a time: the 405 and 500 every path can answer, the
 * headers of 401, 429 and 503, and each header's `required` (schemas/headers.ts writes it `x-required`,
 * which @fastify/swagger leaves inside the header's schema).
 */
export function completeDocument<T extends { paths?: object; components?: object }>(document: T): T {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const pathItem of Object.values(paths)) {
    for (const method of methods) {
      const operation = pathItem[method];
      if (!operation) continue;
      if (method === 'head' && operation.operationId?.endsWith('-head'))
        operation.operationId = operation.operationId.slice(0, -'-head'.length);
      const responses = operation.responses;
      responses['405'] ??= { $ref: '#/components/responses/MethodNotAllowed' };
      responses['500'] ??= { $ref: '#/components/responses/ServerError' };
      for (const [status, response] of Object.entries(responses)) {
        if (response.$ref) continue;
        const challenge: Record<string, Header> =
          status === '401' ? { 'WWW-Authenticate': challengeOf(operation) } : {};
        response.headers = { ...headersByStatus[status], ...challenge, ...response.headers };
        for (const header of Object.values(response.headers)) {
          const marked = header.schema?.['x-required'];
          if (marked === undefined) continue;
          delete header.schema!['x-required'];
          header.required = marked === true;
        }
        if (Object.keys(response.headers).length === 0) delete response.headers;
      }
    }
  }
  const components = (document.components ?? {}) as { responses?: object };
  document.components = { ...components, responses: { ...components.responses, ...sharedResponses } };
  return document;
}

/**
 * The OpenAPI 3 description, generated from the route schemas and served at /api/openapi.json; the
 * reference page at /api/docs (plugins/app/api-docs.ts) renders it, and test/helpers/openapi-answers.ts
 * checks every answer of the API suite against it.
 * Registered before the routes: @fastify/swagger collects them as they are added.
 */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Hello all! API',
          version: '1.0.0',
          description: [
            'Accounts, sessions, password reset, local news and PDFs.',
            '',
            'Two schemes name two kinds of token: `Authorization: Bearer <access token>` (`bearer`) and',
            '`Authorization: Token <refresh token>` (`token`); a call that names neither needs no token.',
            'Errors are `{detail, code?}` or `{field: [messages]}`; every 401 carries `WWW-Authenticate`,',
            'every 429 and 503 `Retry-After`, and a method a path does not take answers 405 with `Allow`.',
            'Paths end in `/` (or not) exactly as written: the other spelling is 404.',
          ].join('\n'),
        },
        servers: [{ url: '/', description: 'This server' }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token.' },
            token: {
              type: 'apiKey',
              in: 'header',
              name: 'Authorization',
              description: '`Token <refresh token>`: the token the browser stores.',
            },
            metrics: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for GET /metrics.' },
          },
        },
      },
      transformObject: (documents) => completeDocument((documents as { openapiObject: object }).openapiObject),
    });

    // Built once (the routes are all in by the first request) and sent as the same bytes each time.
    let body: string | undefined;
    app.get(
      apiPaths.openapi,
      {
        schema: {
          summary: 'This description (OpenAPI 3.0)',
          tags: ['meta'],
          operationId: 'getOpenApiDocument',
          security: [],
          response: {
            200: {
              description: 'The OpenAPI document.',
              content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
            },
          },
        },
      },
      async (_request, reply) => {
        body ??= JSON.stringify(app.swagger());
        return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(body);
      },
    );

    await app.register(apiDocs);
  },
  { name: 'openapi' },
);
