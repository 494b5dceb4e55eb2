import { hitPieces } from './search';

/**
 * Marks the hits of `query` in a drawn text layer: each text item's span (`divs[i]`, whose text is
 * `items[i]`) gets <mark class="highlight"> around the covered characters, as pdf.js's own viewer
 * does; the pieces of hit `selected` also get `selected`. Earlier marks are removed first.
 * Answers the first mark of the selected hit, or null.
 */
export function highlightHits(
  divs: readonly HTMLElement[],
  items: readonly string[],
  query: string,
  selected: number | null,
): HTMLElement | null {
  divs.forEach((div, i) => {
    if (div.firstElementChild) div.textContent = items[i] ?? '';
  });
  if (!query) return null;
  const byItem = new Map<number, ReturnType<typeof hitPieces>>();
  for (const piece of hitPieces(items, query)) {
    const list = byItem.get(piece.item) ?? [];
    list.push(piece);
    byItem.set(piece.item, list);
  }
  let selectedMark: HTMLElement | null = null;
  for (const [item, pieces] of byItem) {
    const div = divs[item];
    const text = items[item];
    if (!div || text === undefined) continue;
    const parts: (string | HTMLElement)[] = [];
    let at = 0;
    for (const piece of pieces) {
      if (piece.start > at) parts.push(text.slice(at, piece.start));
      const mark = document.createElement('mark');
      mark.className = piece.hit === selected ? 'highlight selected' : 'highlight';
      mark.textContent = text.slice(piece.start, piece.end);
      if (piece.hit === selected) selectedMark ??= mark;
      parts.push(mark);
      at = piece.end;
    }
    if (at < text.length) parts.push(text.slice(at));
    div.replaceChildren(...parts);
  }
  return selectedMark;
}
