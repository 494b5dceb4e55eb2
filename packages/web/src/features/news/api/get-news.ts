import { useCallback, useEffect, useState } from 'react';
import { apiPaths, type NewsItem } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { AuthLostError } from '@/lib/errors';

/** GET /api/v1/localnews/ with a Bearer token and credentials (specification §7). */
export function getNews(signal?: AbortSignal): Promise<NewsItem[]> {
  return apiJson<NewsItem[]>(apiPaths.localNews, {
    auth: 'bearer',
    credentials: 'include',
    ...(signal ? { signal } : {}),
  });
}

export interface NewsState {
  status: 'loading' | 'ready' | 'failed';
  items: NewsItem[];
}

/** The news list, loaded on mount; `reload` fetches it again without reloading the page. */
export function useNews(): NewsState & { reload: () => void } {
  const [state, setState] = useState<NewsState>({ status: 'loading', items: [] });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getNews(controller.signal).then(
      (items) => setState({ status: 'ready', items: Array.isArray(items) ? items : [] }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Specification §8: failures are logged, not shown; a lost session has redirected already.
        if (!(error instanceof AuthLostError)) console.error('Could not load the news', error);
        setState((previous) => ({ ...previous, status: 'failed' }));
      },
    );
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => {
    setState((previous) => ({ ...previous, status: 'loading' }));
    setGeneration((value) => value + 1);
  }, []);

  return { ...state, reload };
}
