import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { API_DOCS_PREFIX } from './api-docs.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers helmet sets with our options. They never vary by request, so they are worked out once. */
function helmetHeaders(): Record<string, string> {
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    // Reset links carry their token in the URL: never send it on to another site.
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'sameorigin' },
    // HSTS only means something over HTTPS; sent below when the request came over it.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  apply({} as IncomingMessage, collector as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return headers;
}

/**
 * The API's answers are JSON (or an attachment, which sets its own sandbox) that no browser renders
 * as a page: the headers that matter for them are the ones OWASP's REST Security Cheat Sheet lists.
 * A CSP that allows nothing, no framing, no sniffing, no caching of what may be personal, not
 * readable by no-cors requests of other sites. Helmet's other headers only mean something on a page.
 */
const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The reference page (/api/docs: plugins/app/api-docs.ts) is the one page under /api/: Swagger UI, a
 * script of our own origin that fetches the document and draws the page. Its CSP is the API's with
 * only what that needs: scripts, styles and fetches from our own origin (no inline script or style
 * element, no eval), and images from our origin or `data:` (Swagger UI's stylesheet draws its icons
 * as data: URLs). Not framed, no forms sent anywhere, no <base>.
 */
const API_DOCS_HEADERS: Record<string, string> = {
  ...API_HEADERS,
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

const isApiDocs = (url: string) =>
  url.startsWith(API_DOCS_PREFIX) &&
  (url.length === API_DOCS_PREFIX.length || '/?'.includes(url[API_DOCS_PREFIX.length]!));

/**
 * Security headers on every answer (docs/api.md, "Requests and answers" and "The web app's routes";
 * test/api/security-headers.test.ts): helmet's on pages, PDFs and assets, API_HEADERS on the API
 * (API_DOCS_HEADERS on its reference page).
 * The pages' CSP allows only our own scripts (no inline script, no eval), pdf.js's same-origin
 * worker, and blob: frames for printing a fetched PDF. helmet is used directly rather than through
 * @fastify/helmet, which rebuilds helmet's middleware on every request, a cost every request would
 * pay (docs/ARCHITECTURE.md, "What keeps the hot paths fast").
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const pageHeaders = helmetHeaders();
    app.addHook('onRequest', (request, reply, done) => {
      const { url } = request;
      reply.headers(url.startsWith('/api/') ? (isApiDocs(url) ? API_DOCS_HEADERS : API_HEADERS) : pageHeaders);
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      done();
    });

    // CORS stays off unless origins are configured; then the other origin must be able to read what
    // a client acts on: a file's name, the list's next page, how long a limit asks it to wait.
    const origins = app.config.corsOrigins;
    if (origins.length > 0) {
      await app.register(cors, {
        origin: origins,
        credentials: true,
        exposedHeaders: ['Content-Disposition', 'Link', 'Retry-After'],
      });
    }
  },
  { name: 'security-headers', dependencies: ['services'] },
);
