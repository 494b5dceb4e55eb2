import { open } from 'node:fs/promises';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from '../../src/logger.js';
import { frameworkErrors } from '../../src/plugins/app/errors.js';
import { replyWithFile } from '../../src/routes/reply-with-file.js';

/** What a request's URL looks like in the log (src/logger.ts) and in a delivered mail's stored copy. */
describe('redactUrl', () => {
  it('redacts every query value but the product’s own plain ones', () => {
    expect(redactUrl('/api/v1/token/?password=Qx7-Secret-Val')).toBe('/api/v1/token/?password=[redacted]');
    expect(redactUrl('/resetnewpassword?token=abc&x=1')).toBe('/resetnewpassword?token=[redacted]&x=[redacted]');
    expect(redactUrl('/api/v1/localnews/files/3?expires=1795763135&sig=c2lnbmF0dXJl')).toBe(
      '/api/v1/localnews/files/3?expires=[redacted]&sig=[redacted]',
    );
    expect(redactUrl('/api/v1/localnews/?limit=20&before=MTIzOjQ1Ng')).toBe(
      '/api/v1/localnews/?limit=20&before=MTIzOjQ1Ng',
    );
    expect(redactUrl('/login?next=%2Fnews')).toBe('/login?next=%2Fnews');
    expect(redactUrl('/api/v1/user/profile/')).toBe('/api/v1/user/profile/');
  });

  it('redacts a token encoded inside a plain value, as a hand-made ?next= would carry it', () => {
    expect(redactUrl('/login?next=%2Fconfirmemail%3Ftoken%3DSECRETNEXT')).toBe(
      '/login?next=%2Fconfirmemail%3Ftoken%3D[redacted]',
    );
    expect(redactUrl('/login?next=%252Fx%253Ftoken%253DSECRET2')).toBe('/login?next=%252Fx%253Ftoken%253D[redacted]');
  });

  it('redacts the token of a link inside a mail’s text, and leaves the text around it', () => {
    expect(redactUrl('Open http://app.test/resetnewpassword?token=abc123 within an hour.')).toBe(
      'Open http://app.test/resetnewpassword?token=[redacted] within an hour.',
    );
  });
});

describe('the log', () => {
  it('redacts the URL a line names of its own: a download that failed keeps its signature out', async () => {
    const lines: string[] = [];
    const options = loggerOptions({ logLevel: 'debug', env: 'test' }) as object;
    const app = Fastify({ logger: { ...options, stream: { write: (line: string) => void lines.push(line) } } });
    app.get('/files/:id', async (request, reply) => {
      // A file that cannot be read once the headers are out (closed under the reply).
      const file = await open(import.meta.filename);
      await file.close();
      reply.header('content-length', '10');
      return replyWithFile(request, reply, file, 0, 9);
    });
    try {
      // The answer is cut off after its headers, as a client would see it.
      const cut = await app.inject({ url: '/files/3?expires=1795763135&sig=c2lnbmF0dXJl' }).catch((e: Error) => e);
      expect(cut).toBeInstanceOf(Error);
      const failed = lines.find((line) => line.includes('download failed after its headers were sent'));
      expect(failed).toContain('expires=[redacted]&sig=[redacted]');
      expect(lines.filter((line) => line.includes('c2lnbmF0dXJl'))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('keeps a token out of the line Fastify writes for a URL that does not decode', async () => {
    const lines: string[] = [];
    const options = loggerOptions({ logLevel: 'info', env: 'test' }) as object;
    const app = Fastify({
      logger: { ...options, stream: { write: (line: string) => void lines.push(line) } },
      frameworkErrors,
    });
    app.get('/api/password_reset/:id', async () => 'never');
    try {
      const res = await app.inject({ url: '/api/password_reset/%zz?token=SECRETAPI' });
      expect(res.statusCode).toBe(404);
      expect(lines.some((line) => line.includes('FST_ERR_BAD_URL'))).toBe(true);
      expect(lines.filter((line) => line.includes('SECRETAPI'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
