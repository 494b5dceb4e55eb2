import { describe, expect, it } from 'vitest';
import { decideRange, noneMatch } from '../../src/routes/downloads/conditional.js';

const ETAG = '"abc"';

describe('decideRange', () => {
  const range = (header: string | undefined, size = 1000, ifRange?: string) => decideRange(header, ifRange, ETAG, size);

  it('reads the three single-range forms, clamping the end to the file', () => {
    expect(range('bytes=0-99')).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(range('bytes=900-')).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(range('bytes=-100')).toEqual({ kind: 'partial', start: 900, end: 999 });
    expect(range('bytes=-5000')).toEqual({ kind: 'partial', start: 0, end: 999 });
    expect(range('bytes=990-5000')).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(range('BYTES=1-1')).toEqual({ kind: 'partial', start: 1, end: 1 });
  });

  it('calls a range starting past the end, or an empty suffix, unsatisfiable', () => {
    expect(range('bytes=1000-')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=1000-2000')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=-0')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=-10', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores what it does not understand, several ranges and a stale If-Range: the whole file', () => {
    for (const header of [
      undefined,
      '',
      'bytes=',
      'bytes=-',
      'bytes=5-1',
      'items=0-1',
      'bytes=0-1,5-6',
      'bytes=a-b',
      'bytes=0x10-',
    ]) {
      expect(range(header), String(header)).toEqual({ kind: 'full' });
    }
    expect(range('bytes=0-1', 1000, '"other"')).toEqual({ kind: 'full' });
    expect(range('bytes=0-1', 1000, ETAG)).toEqual({ kind: 'partial', start: 0, end: 1 });
  });
});

describe('noneMatch', () => {
  it('matches a listed tag (weakly), or *', () => {
    expect(noneMatch(ETAG, ETAG)).toBe(true);
    expect(noneMatch(`"x", W/${ETAG}`, ETAG)).toBe(true);
    expect(noneMatch('*', ETAG)).toBe(true);
    expect(noneMatch('"abcd"', ETAG)).toBe(false);
    expect(noneMatch(undefined, ETAG)).toBe(false);
  });
});
