/** A run of plain text, or a web address to show as a link. */
export type Piece = { text: string; href?: undefined } | { text: string; href: string };

/**
 * A news item's content as people typed it: paragraphs separated by blank lines, each a list of
 * its lines (the line breaks inside a paragraph are kept).
 */
export function toParagraphs(content: string): string[][] {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => paragraph.split('\n'));
}

// A web address starts with its scheme; only http and https are ever linked, never javascript:,
// data: or anything else a writer might slip in.
const CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING = /[.,;:!?'*]$/;

const count = (text: string, char: string) => text.split(char).length - 1;

/** Drops what ends a sentence rather than the address: `(see https://x.org/a).` → `https://x.org/a`. */
function trimTrailing(candidate: string): string {
  let url = candidate;
  for (;;) {
    if (TRAILING.test(url)) url = url.slice(0, -1);
    else if (url.endsWith(')') && count(url, ')') > count(url, '(')) url = url.slice(0, -1);
    else if (url.endsWith(']') && count(url, ']') > count(url, '[')) url = url.slice(0, -1);
    else return url;
  }
}

function safeHref(text: string): string | null {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits one line into text and http(s) links; the result's texts joined give the line back. */
export function linkify(line: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  const push = (text: string) => {
    if (!text) return;
    const last = pieces[pieces.length - 1];
    if (last && last.href === undefined) last.text += text;
    else pieces.push({ text });
  };
  for (const match of line.matchAll(CANDIDATE)) {
    const text = trimTrailing(match[0]);
    const href = safeHref(text);
    if (!href) continue;
    push(line.slice(at, match.index));
    pieces.push({ text, href });
    at = match.index + text.length;
  }
  push(line.slice(at));
  return pieces;
}
