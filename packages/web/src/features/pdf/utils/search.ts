// The viewer's search across pages, the parts that need no DOM (docs/web-app.md, "PDF viewer"):
// a page's text is its text items joined as they are, matched without regard to case.

/** The form a query and a page's text are compared in. */
export const foldCase = (text: string) => text.toLocaleLowerCase();

/** The query as searched: trimmed and case-folded; '' searches nothing. */
export const normalizeQuery = (query: string) => foldCase(query.trim());

/**
 * Where `query` (already normalized) starts in `text` (already case-folded), left to right and not
 * overlapping, as pdf.js's own viewer counts.
 */
export function findMatches(text: string, query: string): number[] {
  const starts: number[] = [];
  if (!query) return starts;
  for (let at = text.indexOf(query); at !== -1; at = text.indexOf(query, at + query.length)) starts.push(at);
  return starts;
}

/** A piece of one text item covered by a hit: characters `start` to `end` of item `item`. */
export interface HitPiece {
  item: number;
  start: number;
  end: number;
  /** Which hit of the page (from 0) the piece belongs to; a hit may cover several items. */
  hit: number;
}

/** The pieces of the page's text items (`items`, as laid out) that the page's hits cover. */
export function hitPieces(items: readonly string[], query: string): HitPiece[] {
  // Case folding can change a string's length (rarely); offsets are then taken from the folded text.
  const folded = items.map(foldCase);
  const text = folded.join('');
  const pieces: HitPiece[] = [];
  findMatches(text, query).forEach((start, hit) => {
    const end = start + query.length;
    for (let item = 0, offset = 0; item < folded.length && offset < end; offset += folded[item]!.length, item++) {
      const itemEnd = offset + folded[item]!.length;
      if (itemEnd <= start) continue;
      pieces.push({ item, start: Math.max(start, offset) - offset, end: Math.min(end, itemEnd) - offset, hit });
    }
  });
  return pieces;
}

/** Where hit `index` (from 0, in document order) is: its page (from 1) and its index on that page. */
export function locateHit(counts: readonly number[], index: number): { page: number; onPage: number } | null {
  let before = 0;
  for (let page = 0; page < counts.length; page++) {
    if (index < before + counts[page]!) return { page: page + 1, onPage: index - before };
    before += counts[page]!;
  }
  return null;
}

/** The first hit (its index in document order) on page `page` or after it, else the first of all; null with none. */
export function firstHitFrom(counts: readonly number[], page: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const before = counts.slice(0, page - 1).reduce((a, b) => a + b, 0);
  return before < total ? before : 0;
}

/** What the search says: `Hit 2 of 5`, or `No matches`. */
export function hitLabel(index: number, total: number): string {
  return total === 0 ? 'No matches' : `Hit ${index + 1} of ${total}`;
}
