import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

/** Query parameters that carry secrets (reset tokens in links, attachment signatures). */
const SECRET_PARAMS = /([?&](?:token|sig|signature|expires|refresh|access)=)[^&]*/gi;

export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');

/**
 * Structured request logs. Fastify never logs bodies or headers by default; we also strip secrets
 * from URLs and redact the headers should anything log them.
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'env'>): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'password',
        '*.password',
        'token',
        '*.token',
        'refresh',
        'access',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
