import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiPaths } from '@hello/contract';

/**
 * The OpenAPI 3 description, generated from the route schemas and served at /api/openapi.json.
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
          description:
            'Accounts, sessions, password reset, local news and PDFs. Errors are `{detail, code?}` or `{field: [messages]}`.',
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token.' },
            token: {
              type: 'apiKey',
              in: 'header',
              name: 'Authorization',
              description: '`Token <refresh token>`: the token the browser stores.',
            },
          },
        },
      },
    });
    app.get(apiPaths.openapi, { schema: { summary: 'This description', tags: ['meta'] } }, async (_request, reply) => {
      return reply.header('cache-control', 'no-cache').send(app.swagger());
    });
  },
  { name: 'openapi' },
);
