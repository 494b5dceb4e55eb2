import { useCallback, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { findMatches, firstHitFrom, foldCase, locateHit, normalizeQuery } from '../utils/search';

export interface SearchState {
  /** The query searched (normalized); '' when none. */
  query: string;
  /** Hits per page (index 0 is page 1); null while the pages are read. */
  counts: number[] | null;
  /** The current hit, in document order from 0; null with none. */
  current: number | null;
}

const IDLE: SearchState = { query: '', counts: null, current: null };

/** A page's text as searched: its text items joined as they are, case-folded. */
async function pageText(doc: PDFDocumentProxy, pageNumber: number): Promise<string> {
  const page = await doc.getPage(pageNumber);
  const content = await page.getTextContent();
  return foldCase(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
}

/**
 * Search across every page of `doc` (docs/web-app.md, "PDF viewer"): each page's text is read once
 * (getTextContent) and only its string is kept, so a long document's text contents are not held.
 * `show(page)` is called with the page of the current hit.
 */
export function usePdfSearch(doc: PDFDocumentProxy | null, pageNumber: number, show: (page: number) => void) {
  /** The pages' texts read so far, of the document `of`. */
  const texts = useRef<{ of: PDFDocumentProxy | null; pages: Map<number, string> }>({ of: null, pages: new Map() });
  const run = useRef(0);
  const [state, setState] = useState<SearchState>(IDLE);

  const search = useCallback(
    async (raw: string) => {
      const query = normalizeQuery(raw);
      const mine = ++run.current;
      if (!doc || !query) {
        setState(IDLE);
        return;
      }
      setState({ query, counts: null, current: null });
      if (texts.current.of !== doc) texts.current = { of: doc, pages: new Map() };
      const pages = texts.current.pages;
      const counts: number[] = [];
      try {
        for (let n = 1; n <= doc.numPages; n++) {
          let text = pages.get(n);
          if (text === undefined) {
            text = await pageText(doc, n);
            if (mine !== run.current) return;
            pages.set(n, text);
          }
          counts.push(findMatches(text, query).length);
        }
      } catch (error) {
        if (mine === run.current) console.error('Could not search the PDF', error);
        return;
      }
      if (mine !== run.current) return;
      const current = firstHitFrom(counts, pageNumber);
      setState({ query, counts, current });
      const at = current === null ? null : locateHit(counts, current);
      if (at) show(at.page);
    },
    [doc, pageNumber, show],
  );

  /** Moves `by` hits (1 next, -1 previous), wrapping at the ends, and shows its page. */
  const step = useCallback(
    (by: number) => {
      const { counts, current } = state;
      if (!counts || current === null) return;
      const total = counts.reduce((a, b) => a + b, 0);
      const next = (current + by + total) % total;
      setState({ ...state, current: next });
      const at = locateHit(counts, next);
      if (at) show(at.page);
    },
    [state, show],
  );

  const total = state.counts?.reduce((a, b) => a + b, 0) ?? 0;
  const here = state.counts && state.current !== null ? locateHit(state.counts, state.current) : null;
  return {
    state,
    total,
    /** The current hit's index on page `pageNumber`, or null when it is on another page. */
    selectedOnPage: here && here.page === pageNumber ? here.onPage : null,
    search,
    step,
  };
}
