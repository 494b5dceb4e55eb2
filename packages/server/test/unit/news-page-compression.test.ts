import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NewsPage } from '../../src/routes/api/v1/localnews/news-page-cache.js';

/** A page of the list as JSON, some 50 kB: words that repeat, as news items' do. */
function pageJson(items: number): Buffer {
  const words = ['council', 'library', 'opens', 'the', 'market', 'on', 'Saturday', 'bus', 'every', 'minutes'];
  const list = Array.from({ length: items }, (_, i) => ({
    id: i + 1,
    title: `Item ${i}: ${words[i % 10]} ${words[(i * 3) % 10]}`,
    content: Array.from({ length: 120 }, (_, k) => words[(i * 7 + k * k) % 10]).join(' '),
  }));
  return Buffer.from(JSON.stringify(list));
}

const decoders = { br: brotliDecompressSync, gzip: gunzipSync };

describe('a kept answer, compressed', () => {
  for (const encoding of ['br', 'gzip'] as const) {
    it(`compresses a page in ${encoding} once, well, and keeps it`, () => {
      const json = pageJson(60);
      expect(json.length).toBeGreaterThan(16 * 1024);
      const page = new NewsPage(json, undefined);
      const body = page.body(encoding)!;
      expect(decoders[encoding](body)).toEqual(json);
      expect(page.body(encoding)).toBe(body); // kept, not made again
      // Well: smaller than the fast compression one item gets.
      const fast =
        encoding === 'br'
          ? brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })
          : gzipSync(json, { level: 1 });
      expect(body.length).toBeLessThan(fast.length);
    });
  }

  for (const encoding of ['br', 'gzip'] as const) {
    it(`compresses a page made again after a post fast in ${encoding}: it lasts until the next post`, () => {
      const json = pageJson(60);
      const quick = new NewsPage(json, undefined, undefined, true).body(encoding)!;
      expect(decoders[encoding](quick)).toEqual(json);
      expect(quick.length).toBeGreaterThan(new NewsPage(json, undefined).body(encoding)!.length);
    });
  }

  it('compresses a small answer once and keeps it; below 1 KiB not at all', () => {
    const json = pageJson(2);
    expect(json.length).toBeLessThan(16 * 1024);
    const page = new NewsPage(json, undefined);
    const body = page.body('br')!;
    expect(brotliDecompressSync(body)).toEqual(json);
    expect(page.body('br')).toBe(body);
    expect(new NewsPage(Buffer.from('[]'), undefined).body('br')).toBeUndefined();
  });
});
