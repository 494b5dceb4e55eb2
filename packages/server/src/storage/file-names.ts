/** Longest client file name we keep, in characters. */
export const MAX_FILE_NAME_LENGTH = 200;

// Control characters, and bidi overrides that can disguise `exe.txt` as `txt.exe`.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A client's file name as metadata only (docs/api.md, "Shapes": news file): its last path segment,
 * without control or bidi characters, capped in length. It is never used as a path; files live under
 * names the server chooses.
 */
export function cleanFileName(raw: string | undefined, fallback = 'file'): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.normalize('NFC').replace(UNSAFE, '').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return fallback;
  return Array.from(cleaned).slice(0, MAX_FILE_NAME_LENGTH).join('');
}

/**
 * `attachment` with an ASCII `filename` for old clients and the exact name as RFC 8187 `filename*`.
 * The name is cleaned first, so no quote, backslash or line break can break out of the header.
 */
export function attachmentDisposition(fileName: string): string {
  const name = cleanFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
