import type { NewsPosition } from '../../../../repositories/news.js';

/** One item of a page of the list: where it sorts, and its JSON as the API answers it. */
export interface PageEntry {
  position: NewsPosition;
  json: string | Buffer;
}

/** Whether `a` comes before `b` in the list: newer (created_at, then id), as the list is ordered. */
export const comesBefore = (a: NewsPosition, b: NewsPosition): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * A page of the list as its items' JSON: at most `limit` items older than `before`, and whether older
 * ones exist. Enough to know the page once an item is added without reading the list again
 * (news-page-cache.ts). Timestamps are ISO 8601 UTC in one format (db/schema.ts), so comparing them
 * as strings is comparing them in time, as the database's ORDER BY does.
 *
 * The page's answer is one buffer, and each item is where its bytes lie in it: holding the items'
 * strings as well had doubled a kept page's memory, and more (strings built piece by piece keep their
 * pieces), which showed in the server's RSS after a hundred pages (docs/benchmarks.md).
 */
export class PageEntries {
  /** The page's answer: its items' JSON as one array. */
  readonly json: Buffer;
  private readonly placed: { position: NewsPosition; start: number; end: number }[] = [];

  constructor(
    entries: readonly PageEntry[],
    readonly limit: number,
    readonly before: NewsPosition | undefined,
    readonly more: boolean,
  ) {
    const parts: Buffer[] = [OPEN];
    let at = OPEN.length;
    for (const [i, entry] of entries.entries()) {
      if (i > 0) {
        parts.push(COMMA);
        at += COMMA.length;
      }
      const bytes = typeof entry.json === 'string' ? Buffer.from(entry.json) : entry.json;
      parts.push(bytes);
      this.placed.push({ position: entry.position, start: at, end: at + bytes.length });
      at += bytes.length;
    }
    parts.push(CLOSE);
    this.json = Buffer.concat(parts, at + CLOSE.length);
  }

  /** The items, each with its bytes in the page's answer. */
  get entries(): PageEntry[] {
    return this.placed.map(({ position, start, end }) => ({ position, json: this.json.subarray(start, end) }));
  }

  /** The last item, where the next page starts; undefined on the last page. */
  get next(): NewsPosition | undefined {
    return this.more ? this.placed.at(-1)?.position : undefined;
  }

  /**
   * The page once a new item is stored: this page itself when the item sorts outside it, or when the
   * page has it already (built from the database just after the item's commit).
   */
  withAdded(entry: PageEntry): PageEntries {
    if (this.before && !comesBefore(this.before, entry.position)) return this; // an earlier page's
    if (this.placed.some((e) => e.position.id === entry.position.id)) return this;
    const at = this.placed.findIndex((e) => comesBefore(entry.position, e.position));
    if (at < 0 && this.more) return this; // older than a full page: a later page's
    const entries = this.entries;
    entries.splice(at < 0 ? entries.length : at, 0, entry);
    const more = this.more || entries.length > this.limit;
    if (entries.length > this.limit) entries.pop();
    return new PageEntries(entries, this.limit, this.before, more);
  }
}
