import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstExpiry, useFreshLinks } from './fresh-links';

const link = (id: number, expires: number) => `/api/v1/localnews/files/${id}?expires=${expires}&sig=abc`;

describe('firstExpiry', () => {
  it('is the earliest expires of the links, undefined without one', () => {
    expect(firstExpiry([link(1, 2000), link(2, 1500), link(3, 1800)])).toBe(1500);
    expect(firstExpiry(['/api/v1/localnews/files/1?sig=abc', 'https://example.org/x?expires=abc'])).toBeUndefined();
    expect(firstExpiry([])).toBeUndefined();
  });
});

describe('useFreshLinks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-28T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());
  const now = () => Math.floor(Date.now() / 1000);

  it('reloads a minute before the first link expires, not before', () => {
    const reload = vi.fn();
    renderHook(() => useFreshLinks([link(1, now() + 3600), link(2, now() + 600)], reload));
    vi.advanceTimersByTime(539_000);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('waits at least a minute when the links look expired already (a server clock ahead)', () => {
    const reload = vi.fn();
    renderHook(() => useFreshLinks([link(1, now() - 10)], reload));
    vi.advanceTimersByTime(59_000);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does nothing without links, and nothing once the page is left', () => {
    const reload = vi.fn();
    renderHook(() => useFreshLinks([], reload));
    const { unmount } = renderHook(() => useFreshLinks([link(1, now() + 120)], reload));
    unmount();
    vi.advanceTimersByTime(3_600_000);
    expect(reload).not.toHaveBeenCalled();
  });
});
