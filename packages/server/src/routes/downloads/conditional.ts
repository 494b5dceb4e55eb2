/** HTTP conditional and range requests (RFC 9110, sections 13 and 14), for one representation. */

export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** If-None-Match: `*` or a list of entity tags, compared weakly (a `W/` prefix is ignored). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * One `bytes=` range against a representation of `size` bytes. A header we do not understand, several
 * ranges, or an If-Range that no longer matches all mean "send the whole file", which the RFC allows.
 */
export function decideRange(
  header: string | undefined,
  ifRange: string | undefined,
  etag: string,
  size: number,
): RangeDecision {
  if (!header) return { kind: 'full' };
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: 'full' }; // strong comparison
  const match = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'full' }; // syntactically invalid: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
