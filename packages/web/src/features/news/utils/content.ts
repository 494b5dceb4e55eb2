/**
 * A run of plain text, or a web address to show as a link; `title`, the link's real target, when its
 * host is written otherwise in the text (Unicode for punycode, a numeric address).
 */
export type Piece = { text: string; href?: undefined } | { text: string; href: string; title?: string };

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
// data: or anything else a writer might slip in. It ends before what ends a sentence or a quotation
// in other scripts (… ‹ › „ — – 』 】 。 、) and before full-width punctuation, bar the quotation marks and
// brackets balanced below.
const CANDIDATE =
  /\bhttps?:\/\/[^\s<>"…‹›„—–』】、。\uFF01-\uFF07\uFF0A-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF40\uFF5B-\uFF65]+/gi;
const TRAILING = /[.,;:!?'*]$/;
// Quotation marks and brackets of other scripts, each opening one before its closing one: an
// address may hold them in pairs, and ends before a closing one it did not open.
const QUOTES = '«»「」（）“”‘’';
// Bidirectional controls reorder what is shown: a link holding one is not what it seems.
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
// Something before an `@` in the host's place: https://bank.example@evil.test/ goes to evil.test.
const USERINFO = /^https?:\/\/[^/?#\\]*@/i;

const count = (text: string, char: string) => text.split(char).length - 1;

/** Ends the address before a closing quotation mark it did not open: `«https://x.org/a»`. */
function cutAtUnopened(candidate: string): string {
  const open: number[] = new Array<number>(QUOTES.length / 2).fill(0);
  for (let i = 0; i < candidate.length; i++) {
    const at = QUOTES.indexOf(candidate[i]!);
    if (at < 0) continue;
    if (at % 2 === 0) open[at / 2]!++;
    else if (open[(at - 1) / 2]!-- === 0) return candidate.slice(0, i);
  }
  return candidate;
}

/** Drops what ends a sentence rather than the address: `(see https://x.org/a).` → `https://x.org/a`. */
function trimTrailing(candidate: string): string {
  let url = cutAtUnopened(candidate);
  for (;;) {
    if (TRAILING.test(url)) url = url.slice(0, -1);
    else if (url.endsWith(')') && count(url, ')') > count(url, '(')) url = url.slice(0, -1);
    else if (url.endsWith(']') && count(url, ']') > count(url, '[')) url = url.slice(0, -1);
    else return url;
  }
}

/**
 * An http(s) address's link, or null for one that would mislead (a user name before the host, a
 * bidirectional control); its real target as its title when the text writes the host otherwise.
 */
function safeLink(text: string): { href: string; title?: string } | null {
  if (USERINFO.test(text) || BIDI.test(text)) return null;
  try {
    const url = new URL(text);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
    const shownHost = text.split(/[/?#\\]/)[2]?.toLowerCase();
    return shownHost === url.host ? { href: url.href } : { href: url.href, title: url.href };
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
    const link = safeLink(text);
    if (!link) continue;
    push(line.slice(at, match.index));
    pieces.push({ text, ...link });
    at = match.index + text.length;
  }
  push(line.slice(at));
  return pieces;
}
