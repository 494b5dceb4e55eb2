import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appRoutes } from '@hello/contract';
import { withIdParams } from '../../routes/parse-id.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * For the not-found handler: answers a GET/HEAD outside the API with the web app and status 404
     * (the app shows its 404 page); null for API paths, which keep their JSON 404.
     */
    webAppNotFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | null;
  }
}

/** Vite's hashed build output: a new build gets new names, so these can be cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const HASHED_ASSET = /^assets\/.+[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/i;

const NOT_BUILT = Buffer.from(
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Hello all!</title>' +
    '<h1>Hello all!</h1><p>The web app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p></html>',
);

/** Paths the web app never answers: the API and the PDF downloads answer JSON, 404 included. */
export const isServerPath = (url: string): boolean => /^\/(api|download_pdf_by_id)(\/|\?|$)/.test(url);

/**
 * Serves packages/web/dist (docs/api.md, "The web app's routes"): every route of the app answers
 * index.html with 200, any other page path with 404 (the app then shows its 404 page); hashed assets
 * are cached for good, precompressed `.br`/`.gz` files are used when the browser accepts them.
 */
export default fp(
  async function webApp(app: FastifyInstance) {
    const dist = app.config.webDistDir;
    const indexFile = path.join(dist, 'index.html');
    if (existsSync(indexFile)) {
      await app.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        // One route per file at start: an unknown path costs no disk lookup. Restart after a rebuild.
        wildcard: false,
        globIgnore: ['**/*.br', '**/*.gz'],
        index: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders: (reply, filePath) => {
          const relative = path.relative(dist, filePath).split(path.sep).join('/');
          reply.header('cache-control', HASHED_ASSET.test(relative) ? IMMUTABLE : 'no-cache');
        },
      });
    }

    const readShell = shellReader(indexFile);
    const sendShell = async (reply: FastifyReply, status: 200 | 404) =>
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await readShell());

    for (const route of new Set(Object.values(appRoutes))) {
      // `/news/:id` serves ids only (`/news/abc` is the 404 page), as the contract's appRoutePattern says.
      app.get(withIdParams(route), { schema: { hide: true } }, (_request, reply) => sendShell(reply, 200));
    }
    app.decorate('webAppNotFound', (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      if (isServerPath(request.url)) return null;
      return sendShell(reply, 404);
    });
  },
  { name: 'web-app', dependencies: ['services'] },
);

/** index.html, read again only when the file changed (a rebuild); a short page when it is missing. */
function shellReader(file: string) {
  let cached: { mtimeMs: number; body: Buffer } | undefined;
  return async (): Promise<Buffer> => {
    const info = await stat(file).catch(() => undefined);
    if (!info) return NOT_BUILT;
    if (cached?.mtimeMs !== info.mtimeMs) cached = { mtimeMs: info.mtimeMs, body: await readFile(file) };
    return cached.body;
  };
}
