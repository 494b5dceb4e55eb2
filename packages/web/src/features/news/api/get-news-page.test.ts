import { describe, expect, it } from 'vitest';
import { nextPageUrl } from './get-news-page';

const origin = 'http://localhost';

describe('nextPageUrl', () => {
  it('follows the rel="next" target exactly', () => {
    expect(nextPageUrl('</api/v1/localnews/?limit=50&before=MTIuMjAyNg>; rel="next"', origin)).toBe(
      '/api/v1/localnews/?limit=50&before=MTIuMjAyNg',
    );
  });

  it('finds next among several links and relation types, quoted or not', () => {
    const header = '</api/v1/localnews/?limit=5>; rel="first", </api/v1/localnews/?before=b>; rel=next';
    expect(nextPageUrl(header, origin)).toBe('/api/v1/localnews/?before=b');
    expect(nextPageUrl('<http://localhost/api/v1/localnews/?before=c>; title="x"; rel="prev next"', origin)).toBe(
      '/api/v1/localnews/?before=c',
    );
  });

  it('is null on the last page or for a link it must not send the token to', () => {
    expect(nextPageUrl(null, origin)).toBeNull();
    expect(nextPageUrl('</api/v1/localnews/?before=a>; rel="prev"', origin)).toBeNull();
    expect(nextPageUrl('<https://evil.example/api/v1/localnews/?before=a>; rel="next"', origin)).toBeNull();
    expect(nextPageUrl('<//evil.example/api/v1/localnews/>; rel="next"', origin)).toBeNull();
    expect(nextPageUrl('</api/v1/user/profile/>; rel="next"', origin)).toBeNull();
  });
});
