import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer (issue 5). The CSP allows only our own scripts (no inline script,
 * no eval), pdf.js's same-origin worker, and blob: frames for printing a fetched PDF.
 */
export default fp(
  async function securityHeaders(app: FastifyInstance) {
    await app.register(helmet, {
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
    app.addHook('onSend', async (request, reply) => {
      if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    });

    // CORS stays off unless origins are configured; then file names must be readable by the other origin.
    const origins = app.config.corsOrigins;
    if (origins.length > 0) {
      await app.register(cors, { origin: origins, credentials: true, exposedHeaders: ['Content-Disposition'] });
    }
  },
  { name: 'security-headers', dependencies: ['services'] },
);
