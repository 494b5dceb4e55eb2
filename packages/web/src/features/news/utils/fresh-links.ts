import { useEffect } from 'react';

/** Reloaded this long before the first link expires, so that no click meets an expired one. */
const AHEAD_MS = 60_000;

/** The earliest `expires` (seconds since the epoch) of signed links; undefined when none has one. */
export function firstExpiry(urls: readonly string[]): number | undefined {
  const times = urls
    .map((url) => Number(new URL(url, 'http://x').searchParams.get('expires')))
    .filter((seconds) => Number.isFinite(seconds) && seconds > 0);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/**
 * An item's attachment links are signed for about an hour (docs/api.md, "Attachments"); a page left open longer would
 * offer links, and previews, that no longer work. `reload` runs a minute before the first expires,
 * while the data shown stays until the new answer replaces it.
 */
export function useFreshLinks(urls: readonly string[], reload: () => void): void {
  const expiry = firstExpiry(urls);
  useEffect(() => {
    if (expiry === undefined) return;
    // At least a minute apart: a server clock ahead of this one must not make a reload loop.
    const timer = setTimeout(reload, Math.max(expiry * 1000 - AHEAD_MS - Date.now(), AHEAD_MS));
    return () => clearTimeout(timer);
  }, [expiry, reload]);
}
