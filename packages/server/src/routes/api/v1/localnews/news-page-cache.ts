import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';
import { listNewsPage, newsRevision, type NewsItemWithFiles, type NewsPosition } from '../../../../repositories/news.js';
import { COMPRESS_ABOVE_BYTES, type Encoding } from '../../../../plugins/app/compression.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Pages kept at once; past that the set starts again (the first pages are the ones asked for). */
const MAX_PAGES = 256;

/** One page of the list, kept as ready bytes, compressed on first demand (off the event loop). */
export class NewsPage {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();
  constructor(
    readonly json: Buffer,
    /** The last item, where the next page starts; undefined on the last page. */
    readonly next: NewsPosition | undefined,
  ) {}

  /** The body in `encoding`, or undefined when it is too small to be worth it. */
  body(encoding: Encoding): Promise<Buffer> | undefined {
    if (this.json.length <= COMPRESS_ABOVE_BYTES) return undefined;
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotli(this.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.json.length } })
          : gzipAsync(this.json, { level: 6 });
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * Pages of the news list, kept while the stored revision (raised in the same transaction as each
 * change, by any instance) and the attachment links' expiry step stand. Each request still reads the
 * revision, which keeps a change made through another server instance visible at once: given by the
 * caller when it was read already (with the session, repositories/sessions.ts), else asked here.
 * A change costs one page's rebuild when it is next asked for, never the whole list's.
 */
export function createNewsPageCache(db: Kysely<Database>, linksExpiry: (nowMs: number) => number) {
  let revision = -1;
  let expiry = -1;
  const pages = new Map<string, Promise<NewsPage>>();

  return async function newsPage(
    render: (items: NewsItemWithFiles[], nowMs: number) => string,
    limit: number,
    before: NewsPosition | undefined,
    revisionRead?: number,
  ): Promise<NewsPage> {
    const nowMs = Date.now();
    const linksStep = linksExpiry(nowMs);
    // Read before the page: if a change lands in between, the page is newer than its revision says
    // and is only rebuilt once more, never the other way round.
    const seen = revisionRead ?? (await newsRevision(db));
    const build = async () => {
      const { items, more } = await listNewsPage(db, limit, before);
      const last = items.at(-1);
      return new NewsPage(Buffer.from(render(items, nowMs)), more && last ? { createdAt: last.created_at, id: last.id } : undefined);
    };
    // A request that read an older revision than the kept pages' (it raced a change) is served fresh.
    if (seen < revision) return build();
    if (seen > revision || linksStep !== expiry || pages.size >= MAX_PAGES) {
      pages.clear();
      revision = seen;
      expiry = linksStep;
    }
    const key = before ? `${limit}.${before.id}.${before.createdAt}` : String(limit);
    let page = pages.get(key);
    if (!page) {
      page = build();
      pages.set(key, page);
      // A failed read (the database away) is not kept.
      page.catch(() => pages.get(key) === page && pages.delete(key));
    }
    return page;
  };
}
