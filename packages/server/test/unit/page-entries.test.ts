import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comesBefore, PageEntries, type PageEntry } from '../../src/routes/api/v1/localnews/page-entries.js';
import type { NewsPosition } from '../../src/repositories/news.js';

/** Timestamps of one format, as the database stores them; few of them, so that ties on created_at come up. */
const positionArb = fc.record({
  createdAt: fc.integer({ min: 0, max: 20 }).map((s) => new Date(Date.UTC(2026, 10, 25, 12, 0, s)).toISOString()),
  id: fc.integer({ min: 1, max: 10_000 }),
});
const entryOf = (position: NewsPosition): PageEntry => ({ position, json: JSON.stringify(position) });
const newestFirst = (a: NewsPosition, b: NewsPosition) => (comesBefore(a, b) ? -1 : comesBefore(b, a) ? 1 : 0);

/** The page as the database gives it: the list sorted, at most `limit` items older than `before`. */
function pageOf(list: NewsPosition[], limit: number, before: NewsPosition | undefined): PageEntries {
  const older = list.filter((p) => !before || comesBefore(before, p)).sort(newestFirst);
  return new PageEntries(older.slice(0, limit).map(entryOf), limit, before, older.length > limit);
}

describe('a page of the list, made again when an item is added', () => {
  it('is the page the whole list gives once the item is in it (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(positionArb, { minLength: 1, maxLength: 30, selector: (p) => p.id }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(positionArb, { nil: undefined }),
        (positions, limit, before) => {
          const [added, ...list] = positions as [NewsPosition, ...NewsPosition[]];
          const page = pageOf(list, limit, before);
          const expected = pageOf([...list, added], limit, before);
          const made = page.withAdded(entryOf(added));
          expect(made.entries).toEqual(expected.entries);
          expect(made.more).toBe(expected.more);
          expect(made.next).toEqual(expected.next);
          expect(made.json.toString()).toBe(expected.json.toString());
          expect(JSON.parse(made.json.toString())).toEqual(expected.entries.map((e) => JSON.parse(e.json.toString())));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is the same page when the item sorts before its cursor, after a full page, or is on it already', () => {
    const at = (s: number, id: number) => ({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString(), id });
    const second = pageOf([at(1, 1), at(2, 2), at(3, 3)], 2, at(4, 4)); // items 3 and 2, more
    expect(second.withAdded(entryOf(at(5, 5)))).toBe(second); // newer than the cursor: the first page's
    expect(second.withAdded(entryOf(at(0, 6)))).toBe(second); // older than a full page with more: a later one's
    expect(second.withAdded(entryOf(at(3, 3)))).toBe(second); // read from the database after its commit
    const last = pageOf([at(1, 1)], 2, undefined);
    expect(last.withAdded(entryOf(at(0, 7))).entries.map((e) => e.position.id)).toEqual([1, 7]);
  });
});
