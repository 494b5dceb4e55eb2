import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/logger.js';

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

  it('redacts the token of a link inside a mail’s text, and leaves the text around it', () => {
    expect(redactUrl('Open http://app.test/resetnewpassword?token=abc123 within an hour.')).toBe(
      'Open http://app.test/resetnewpassword?token=[redacted] within an hour.',
    );
  });
});
