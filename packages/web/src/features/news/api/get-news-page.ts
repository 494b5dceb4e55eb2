import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { apiPaths, type NewsItem } from '@hello/contract';
import { apiFetch, readBody } from '@/lib/api-client';
import { AuthLostError } from '@/lib/errors';
import { useResource, type ResourceStatus } from '@/lib/use-resource';

export interface NewsPage {
  items: NewsItem[];
  /** Where the next (older) page is, exactly as the server's `Link: <…>; rel="next"` gave it. */
  next: string | null;
}

/**
 * The `rel="next"` target of a Link header (RFC 8288), or null on the last page. Only a same-origin
 * URL of the news list is followed: the request carries the user's Bearer token.
 */
export function nextPageUrl(link: string | null, origin = window.location.origin): string | null {
  if (!link) return null;
  for (const [, target = '', params = ''] of link.matchAll(/<([^>]*)>([^,]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes('next')) continue;
    let url: URL;
    try {
      url = new URL(target, origin);
    } catch {
      return null;
    }
    return url.origin === origin && url.pathname === apiPaths.localNews ? url.pathname + url.search : null;
  }
  return null;
}

/**
 * GET /api/v1/localnews/ with a Bearer token and credentials (docs/api.md, "Local news"):
 * one page, newest first. `url` is the list itself for the newest page, then each page's `next`.
 */
export async function getNewsPage(url: string = apiPaths.localNews, signal?: AbortSignal): Promise<NewsPage> {
  const response = await apiFetch(url, { auth: 'bearer', credentials: 'include', ...(signal ? { signal } : {}) });
  const body = await readBody(response);
  return { items: Array.isArray(body) ? (body as NewsItem[]) : [], next: nextPageUrl(response.headers.get('Link')) };
}

interface OlderPages {
  /** The newest page these follow; a reload of it starts over. */
  after: NewsPage;
  items: NewsItem[];
  next: string | null;
  status: 'idle' | 'loading' | 'failed';
  /** Index (in the whole list) of the first item the last page added, to move focus there. */
  addedFrom: number | null;
}

export interface NewsPages {
  /** How the newest page is doing; older pages report through `older`. */
  status: ResourceStatus;
  items: NewsItem[];
  hasOlder: boolean;
  older: OlderPages['status'];
  addedFrom: number | null;
  loadOlder: () => void;
  reload: () => void;
}

/** The whole list, a page at a time: the newest page on mount, each older one on request. */
export function useNewsPages(): NewsPages {
  const newest = useResource('news-pages', (signal) => getNewsPage(apiPaths.localNews, signal), 'the news');
  const [pages, setPages] = useState<OlderPages | null>(null);
  const request = useRef<AbortController | null>(null);
  useEffect(() => () => request.current?.abort(), []);

  const first = newest.data;
  const older = first && pages?.after === first ? pages : null;
  const next = older ? older.next : (first?.next ?? null);
  const items = useMemo(() => (first ? [...first.items, ...(older?.items ?? [])] : []), [first, older?.items]);

  const loadOlder = useCallback(() => {
    if (!first || !next || older?.status === 'loading') return;
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    const base: OlderPages = older ?? { after: first, items: [], next, status: 'idle', addedFrom: null };
    setPages({ ...base, status: 'loading' });
    getNewsPage(next, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        // The server's cursor never repeats an item; this keeps React keys unique even if it did.
        const seen = new Set([...first.items, ...base.items].map((item) => item.id));
        const added = page.items.filter((item) => !seen.has(item.id));
        setPages({
          ...base,
          items: [...base.items, ...added],
          next: page.next,
          status: 'idle',
          addedFrom: added.length > 0 ? first.items.length + base.items.length : null,
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (!(error instanceof AuthLostError)) console.error('Could not load older news', error);
        setPages({ ...base, status: 'failed' });
      },
    );
  }, [first, next, older]);

  return {
    status: newest.status,
    items,
    hasOlder: next !== null,
    older: older?.status ?? 'idle',
    addedFrom: older?.addedFrom ?? null,
    loadOlder,
    reload: newest.reload,
  };
}
