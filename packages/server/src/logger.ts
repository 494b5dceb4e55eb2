import type { FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';

/**
 * Query parameters whose values are logged as they are: the product's own, which carry no secret.
 * Every other value is redacted: reset tokens in links, attachment signatures, and whatever a client
 * puts in a URL that does not belong there (a password sent as `?password=`).
 */
const PLAIN_PARAMS = new Set(['limit', 'before', 'id', 'page', 'next']);

/**
 * A value ends at `&`, `#`, whitespace, or a `?` that starts another `name=`, so a plain name cannot
 * swallow what follows it (`/x&next=?token=…`) while a secret holding a `?` is redacted whole; and
 * any `token=` value is redacted wherever it stands, whatever precedes it, even encoded inside a
 * plain one (`?next=%2Fconfirmemail%3Ftoken%3D…`).
 */
export const redactUrl = (url: string): string =>
  url
    .replace(/([?&])([^=&#?\s]*)=((?:[^&#?\s]|\?(?![^=&#?\s]*=))*)/g, (whole, separator: string, name: string) =>
      PLAIN_PARAMS.has(name) ? whole : `${separator}${name}=[redacted]`,
    )
    .replace(/token(=|%3D|%253D)[^&#?\s]*/gi, 'token$1[redacted]');

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
      // Any line that names a URL of its own (a download that failed: routes/reply-with-file.ts).
      url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
    },
  };
}
