import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';

/** How many leading bytes decide the text fallback. */
export const SNIFF_BYTES = 8192;

/**
 * The content type of a stored file, from its bytes: never the client's claim, which could label an
 * HTML page as an image. Known binary formats by their signature (file-type); otherwise UTF-8 text
 * with no NUL is `text/plain`, anything else `application/octet-stream`. HTML, SVG and scripts are
 * text to file-type, so they come out as `text/plain` and can never render in our origin; so does
 * what it names by a text-based type (XML, which an SVG or XHTML page with an XML declaration is).
 */
export async function sniffContentType(filePath: string, head: Uint8Array, totalSize: number): Promise<string> {
  // A file whose bytes are all in `head` is read from there: the same bytes, without opening it again.
  const complete = head.length >= totalSize;
  const detected = await (complete ? fileTypeFromBuffer(head) : fileTypeFromFile(filePath)).catch(() => undefined);
  if (detected && !isTextBased(detected.mime)) return detected.mime;
  return looksLikeText(head, complete) ? 'text/plain' : 'application/octet-stream';
}

/** XML of any kind (`application/xml`, `image/svg+xml`, …) or a `text/` type: markup a browser might render. */
const isTextBased = (mime: string) => /^text\/|[/+]xml$/.test(mime);

/** UTF-8 without NUL; when `head` is only a prefix, a character cut at its end is forgiven. */
export function looksLikeText(head: Uint8Array, complete: boolean): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  const buffer = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (complete) return isUtf8(buffer);
  for (let cut = 0; cut <= 3 && cut < buffer.length; cut += 1) {
    if (isUtf8(buffer.subarray(0, buffer.length - cut))) return true;
  }
  return false;
}
