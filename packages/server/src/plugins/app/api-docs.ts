import { createRequire } from 'node:module';
import path from 'node:path';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** Where the reference page is served; security-headers.ts gives this prefix the page's CSP. */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * GET /api/docs: a readable reference of every call, rendered in the browser by Swagger UI from the
 * document of /api/openapi.json (served to it at /api/docs/json, the same `app.swagger()`). Everything
 * the page loads comes from this server: Swagger UI's scripts and styles are files of the
 * @fastify/swagger-ui package, read by @fastify/static when asked for (nothing is read at start-up),
 * and no validator or other third-party host is called. Its routes are left out of the document.
 * Registered by plugins/app/openapi.ts after @fastify/swagger, in a scope of its own.
 */
export default async function apiDocs(app: FastifyInstance) {
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // Where the package's files are, named here: in the start-up bundle (scripts/bundle.mjs) the plugin's
    // own code runs from dist/, where its `__dirname` does not exist. (With it, the plugin also serves
    // that folder's files under /api/docs/: the same public files of Swagger UI.)
    baseDir: path.join(
      path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
      'static',
    ),
    theme: { title: 'Hello all! API reference' },
    // The page without Swagger UI's top bar (a box to load any other URL) and so without its logo:
    // null also keeps the plugin from reading the logo's file at start-up.
    logo: null as unknown as undefined,
    uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    validatorUrl: false,
  });
}
