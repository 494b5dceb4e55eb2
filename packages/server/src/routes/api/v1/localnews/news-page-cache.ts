import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';
import {
  findNewsItem,
  listNewsPage,
  newsRevision,
  type NewsItemWithFiles,
  type NewsPosition,
} from '../../../../repositories/news.js';
import { COMPRESS_ABOVE_BYTES, type Encoding } from '../../../../plugins/app/compression.js';
import { PageEntries, type PageEntry } from './page-entries.js';

/** Answers up to this size (one item) are compressed fast; larger ones (a page) well, unless made again after a post (see compress). */
const SMALL_ANSWER_BYTES = 16 * 1024;
/** The smallest output chunk (an answer over 1 KiB compresses to less than this, mostly). */
const MIN_CHUNK_BYTES = 1024;

/** Answers kept at once, of each kind; past that the kind's set starts again. Items have a set of
 * their own, so reading items at random never drops the first pages, the answers asked for most. */
const MAX_KEPT = 256;
/** Item ids remembered as asked for once (see admitItem); past that the set starts again. */
const MAX_ASKED_ONCE = 4096;

/**
 * Pages: brotli at quality 5 with a 256 KiB window (the default's is 4 MiB): a page is at most some
 * 100 kB, so the larger window compresses it no better, and each compression's memory is a fraction.
 */
export const BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 18 };
const GZIP_LEVEL = 6;

/**
 * Small answers (one item, mostly 1–2 kB) are rarely asked for twice, so each one is compressed for
 * its request: at brotli's quality 1 (gzip's level 1) that costs less than half of quality 5's time, whose
 * larger tables are set up anew for each answer, and the answer comes out some 15% larger, some 70
 * bytes of an item. A page made again after a post (`quick`) is compressed so too: while items are
 * posted it lasts until the next one, and the read that compresses it is the one a post slows the
 * most; without posts it lasts until the links' next expiry step, then is read again. Quality 1
 * takes a fourth of quality 5's time there (0.3 against 1.25 ms for a 50 kB page on the bench's
 * machine) for 9.5 instead of 7.9 kB, and the list's p99 while items are posted fell by about a
 * quarter (docs/benchmarks.md, "The reads beside posts: judged against the same posts refused").
 */
const SMALL_BROTLI_PARAMS = { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18 };
const SMALL_GZIP_LEVEL = 1;

/** One answer (a page of the list, or one item), kept as ready bytes, compressed on first demand. */
export class NewsPage {
  private readonly encoded = new Map<Encoding, Buffer>();
  constructor(
    readonly json: Buffer,
    /** The last item, where the next page starts; undefined on the last page. */
    readonly next: NewsPosition | undefined,
    /** A page's items, to make the page again when one is added (undefined for one item's answer). */
    readonly entries?: PageEntries,
    /** Compressed fast whatever its size: a page made again after a post (see SMALL_BROTLI_PARAMS). */
    private readonly quick = false,
  ) {}

  static ofEntries(entries: PageEntries, quick = false): NewsPage {
    return new NewsPage(entries.json, entries.next, entries, quick);
  }

  /** The body in `encoding`, or undefined when it is too small to be worth it. */
  body(encoding: Encoding): Buffer | undefined {
    if (this.json.length <= COMPRESS_ABOVE_BYTES) return undefined;
    let body = this.encoded.get(encoding);
    if (!body) {
      body = compress(this.json, encoding, this.quick);
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/**
 * On the event loop, at once: a 50 kB page takes 0.6 ms at brotli quality 5 alone, up to 1.7 ms in
 * the running server (its profile, under load); one item a few microseconds at quality 1. Handing a
 * page to libuv's pool cost the loop about as much (1.8 ms: the encoder set up, the stream's chunks
 * and callbacks), took the pool's CPU besides, and made the requests that came just after a change
 * wait for it (the list's p99 while items are posted, docs/benchmarks.md); compressing thousands of
 * items there also made each pool thread's allocator keep its own memory. The output buffer is sized
 * to the answer (zlib's default is 16 KiB, allocated apart for each answer; sized to a small answer
 * it comes from node's shared buffer pool), which keeps the process's memory from fragmenting when
 * items are read at random; a compressed answer larger than its chunk still comes out whole.
 */
function compress(json: Buffer, encoding: Encoding, quick: boolean): Buffer {
  const fast = quick || json.length <= SMALL_ANSWER_BYTES;
  const chunkSize = Math.max(MIN_CHUNK_BYTES, Math.min(json.length, SMALL_ANSWER_BYTES));
  if (encoding === 'gzip') return gzipSync(json, { level: fast ? SMALL_GZIP_LEVEL : GZIP_LEVEL, chunkSize });
  const params = fast ? SMALL_BROTLI_PARAMS : { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: json.length };
  return brotliCompressSync(json, { params, chunkSize });
}

/**
 * Pages of the news list and single items, kept as answers while the stored revision (raised in the
 * same transaction as each change, by any instance) and the attachment links' expiry step stand.
 * Each request still reads the revision, which keeps a change made through another server instance
 * visible at once: given by the caller when it was read already (with the session,
 * repositories/sessions.ts), else asked here. A change costs the rebuild of the answers next asked
 * for, never the whole list's; an item added through this instance costs less still (see `added`).
 */
export function createNewsPageCache(db: Kysely<Database>, linksExpiry: (nowMs: number) => number) {
  let revision = -1;
  let expiry = -1;
  const keptPages = new Map<string, Promise<NewsPage | undefined>>();
  const keptItems = new Map<string, Promise<NewsPage | undefined>>();
  /** The kept answers that are built already, by their promise. */
  const built = new WeakMap<Promise<NewsPage | undefined>, NewsPage>();
  // An item is kept from its second request on: read at random across a large store, most items are
  // asked for once, and keeping each of those only made work for the garbage collector (more memory
  // held between collections). A popular item is kept as soon as it is asked for again.
  const askedOnce = new Set<string>();
  const admitItem = (key: string) => {
    if (askedOnce.has(key)) return true;
    if (askedOnce.size >= MAX_ASKED_ONCE) askedOnce.clear();
    askedOnce.add(key);
    return false;
  };

  /** The answer under `key` in `kept`, built by `build` unless kept; undefined for what does not exist. */
  async function answer(
    kept: Map<string, Promise<NewsPage | undefined>>,
    key: string,
    build: (nowMs: number) => Promise<NewsPage | undefined>,
    revisionRead?: number,
    admit?: (key: string) => boolean,
  ) {
    const nowMs = Date.now();
    const linksStep = linksExpiry(nowMs);
    // Read before the answer is built: if a change lands in between, the answer is newer than its
    // revision says and is only rebuilt once more, never the other way round.
    const seen = revisionRead ?? (await newsRevision(db));
    // A request that read an older revision than the kept answers' (it raced a change) is served fresh.
    if (seen < revision) return build(nowMs);
    if (seen > revision || linksStep !== expiry) {
      keptPages.clear();
      keptItems.clear();
      revision = seen;
      expiry = linksStep;
    }
    if (kept.size >= MAX_KEPT) kept.clear();
    let page = kept.get(key);
    if (!page) {
      if (admit && !admit(key)) return build(nowMs);
      const building = build(nowMs);
      page = building;
      kept.set(key, building);
      building.then(
        (done) => done && built.set(building, done),
        // A failed read (the database away) is not kept.
        () => kept.get(key) === building && kept.delete(key),
      );
    }
    return page;
  }

  return {
    /** A page of the list: at most `limit` items older than `before`, each item's JSON made by `render`. */
    page(
      render: (item: NewsItemWithFiles, nowMs: number) => string,
      limit: number,
      before: NewsPosition | undefined,
      revisionRead?: number,
    ) {
      const key = before ? `${limit}.${before.id}.${before.createdAt}` : String(limit);
      return answer(
        keptPages,
        key,
        async (nowMs) => {
          const { items, more } = await listNewsPage(db, limit, before);
          const entries = items.map((item) => ({
            position: { createdAt: item.created_at, id: item.id },
            json: render(item, nowMs),
          }));
          return NewsPage.ofEntries(new PageEntries(entries, limit, before, more));
        },
        revisionRead,
      ) as Promise<NewsPage>;
    },
    /**
     * An item this instance has just stored (its JSON signed at `nowMs`), in the change that raised the
     * revision to `revisionAfter`: when the kept answers are of the revision just before and the links'
     * step still stands, each kept page is made again from its kept items and this one, without a
     * query or the other items' rendering, so that the requests right after a post are not the ones
     * that pay for it (the list's p99 while items are posted, docs/benchmarks.md). Otherwise (a change
     * made meanwhile, here or through another instance) nothing is done: the next request rebuilds.
     * Called as soon as the change commits; a request that reads the new revision before that (on
     * PostgreSQL, whose commit is not synchronous) rebuilds instead, and this then does nothing.
     */
    added(entry: PageEntry, nowMs: number, revisionAfter: number) {
      if (revisionAfter !== revision + 1 || linksExpiry(nowMs) !== expiry) return;
      revision = revisionAfter;
      // A kept "no such item" for the new id would now be wrong; other items are as they were.
      keptItems.delete(String(entry.position.id));
      for (const [key, kept] of keptPages) {
        const page = built.get(kept);
        // Still being built: from the revision before, so it cannot be kept.
        if (!page?.entries) {
          keptPages.delete(key);
          continue;
        }
        const entries = page.entries.withAdded(entry);
        if (entries === page.entries) continue;
        const again = NewsPage.ofEntries(entries, true);
        const settled = Promise.resolve(again);
        built.set(settled, again);
        keptPages.set(key, settled);
      }
    },
    /** One item, or undefined when there is none. */
    item(render: (item: NewsItemWithFiles, nowMs: number) => string, id: number, revisionRead?: number) {
      return answer(
        keptItems,
        String(id),
        async (nowMs) => {
          const item = await findNewsItem(db, id);
          return item && new NewsPage(Buffer.from(render(item, nowMs)), undefined);
        },
        revisionRead,
        admitItem,
      );
    },
  };
}

export type NewsPageCache = ReturnType<typeof createNewsPageCache>;
