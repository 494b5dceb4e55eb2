import { describe, expect, it } from 'vitest';
import { findMatches, firstHitFrom, hitLabel, hitPieces, locateHit, normalizeQuery } from './search';

describe('PDF search', () => {
  it('finds a query without regard to case, left to right, not overlapping', () => {
    expect(normalizeQuery('  VoLunteers ')).toBe('volunteers');
    expect(findMatches('aaaa', 'aa')).toEqual([0, 2]);
    expect(findMatches('volunteers wanted, volunteers', 'volunteers')).toEqual([0, 19]);
    expect(findMatches('anything', '')).toEqual([]);
  });

  it('maps a hit over several text items to a piece of each', () => {
    expect(hitPieces(['Volun', 'teers wanted', 'x'], 'volunteers')).toEqual([
      { item: 0, start: 0, end: 5, hit: 0 },
      { item: 1, start: 0, end: 5, hit: 0 },
    ]);
    expect(hitPieces(['a cat', ' and a CAT'], 'cat')).toEqual([
      { item: 0, start: 2, end: 5, hit: 0 },
      { item: 1, start: 7, end: 10, hit: 1 },
    ]);
  });

  it('locates hits in document order across pages and starts from the page shown', () => {
    const counts = [1, 0, 2, 0];
    expect(locateHit(counts, 0)).toEqual({ page: 1, onPage: 0 });
    expect(locateHit(counts, 2)).toEqual({ page: 3, onPage: 1 });
    expect(locateHit(counts, 3)).toBeNull();
    expect(firstHitFrom(counts, 1)).toBe(0);
    expect(firstHitFrom(counts, 2)).toBe(1);
    // After the last hit: wraps to the first.
    expect(firstHitFrom(counts, 4)).toBe(0);
    expect(firstHitFrom([0, 0], 1)).toBeNull();
  });

  it('says which hit of how many, or that there is none', () => {
    expect(hitLabel(0, 2)).toBe('Hit 1 of 2');
    expect(hitLabel(0, 0)).toBe('No matches');
  });
});
