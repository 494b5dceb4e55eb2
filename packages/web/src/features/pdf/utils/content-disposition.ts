/** Decodes RFC 8187 percent-encoding in the given charset (UTF-8, or ISO-8859-1 byte by byte). */
function decodeExtValue(charset: string, encoded: string): string | null {
  try {
    if (!charset || /^utf-8$/i.test(charset)) return decodeURIComponent(encoded);
    if (/^iso-8859-1$/i.test(charset)) {
      return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  } catch {
    // malformed percent-encoding: fall back to the plain filename parameter
  }
  return null;
}

/** Keeps only the last path segment: a file name must never choose a folder. */
function baseName(name: string): string {
  return name.split(/[/\\]/).pop()?.trim() ?? '';
}

/**
 * The file name of a `Content-Disposition` header (RFC 6266): `filename*=UTF-8''…` wins over
 * `filename="…"` (quoted, with backslash escapes) or a bare `filename=…`. Null when there is none.
 */
export function filenameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*"?([^';"]*)'[^']*'([^;"]*)"?/i.exec(header);
  if (extended) {
    const decoded = decodeExtValue(extended[1] ?? '', extended[2] ?? '');
    const name = decoded && baseName(decoded);
    if (name) return name;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header);
  if (plain) {
    const raw = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : (plain[2] ?? '');
    const name = baseName(raw);
    if (name) return name;
  }
  return null;
}
