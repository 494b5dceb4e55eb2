import type { NewsPosition } from '../../../../repositories/news.js';

/** One item of a page of the list: where it sorts, and its JSON as the API answers it. */
export interface PageEntry {
  position: NewsPosition;
  json: string;
}

/** Whether `a` comes before `b` in the list: newer (created_at, then id), as the list is ordered. */
export const comesBefore = (a: NewsPosition, b: NewsPosition): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/**
 * A page of the list as its items' JSON: at most `limit` items older than `before`, and whether older
 * ones exist. Enough to know the page once an item is added without reading the list again
 * (news-page-cache.ts). Timestamps are ISO 8601 UTC in one format (db/schema.ts), so comparing them
 * as strings is comparing them in time, as the database's ORDER BY does.
 */
export class PageEntries {
  constructor(
    readonly entries: readonly PageEntry[],
    readonly limit: number,
    readonly before: NewsPosition | undefined,
    readonly more: boolean,
  ) {}

  /** The page's answer: its items' JSON as one array. */
  json(): Buffer {
    return Buffer.from(`[${this.entries.map((e) => e.json).join(',')}]`);
  }

  /** The last item, where the next page starts; undefined on the last page. */
  get next(): NewsPosition | undefined {
    return this.more ? this.entries.at(-1)?.position : undefined;
  }

  /**
   * The page once a new item is stored: this page itself when the item sorts outside it, or when the
   * page has it already (built from the database just after the item's commit).
   */
  withAdded(entry: PageEntry): PageEntries {
    if (this.before && !comesBefore(this.before, entry.position)) return this; // an earlier page's
    if (this.entries.some((e) => e.position.id === entry.position.id)) return this;
    const at = this.entries.findIndex((e) => comesBefore(entry.position, e.position));
    if (at < 0 && this.more) return this; // older than a full page: a later page's
    const entries = [...this.entries];
    entries.splice(at < 0 ? entries.length : at, 0, entry);
    const more = this.more || entries.length > this.limit;
    if (entries.length > this.limit) entries.pop();
    return new PageEntries(entries, this.limit, this.before, more);
  }
}
