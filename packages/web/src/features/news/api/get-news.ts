import { apiPaths, type NewsItem } from '@hello/contract';
import { useResource } from '@/lib/use-resource';
import { getNewsPage } from './get-news-page';

/**
 * The newest page of GET /api/v1/localnews/ (up to the server's default page size, 50 items).
 * /localnews picks its random item "from the list": since the list became paged (docs/api.md, "Local news")
 * that is the newest page, which is what a visitor of that page cares about.
 */
export async function getNews(signal?: AbortSignal): Promise<NewsItem[]> {
  return (await getNewsPage(apiPaths.localNews, signal)).items;
}

export interface NewsState {
  status: 'loading' | 'ready' | 'failed';
  items: NewsItem[];
  /** Older items exist beyond `items` (see /news for them). */
  hasOlder: boolean;
}

const noItems: NewsItem[] = [];

/** The news list, loaded on mount; `reload` fetches it again without reloading the page. */
export function useNews(): NewsState & { reload: () => void } {
  const news = useResource('news', (signal) => getNewsPage(apiPaths.localNews, signal), 'the news');
  // docs/web-app.md, "Failures": failures are logged, not shown; a 404 is a failure like any other here.
  const status = news.status === 'notfound' ? 'failed' : news.status;
  return { status, items: news.data?.items ?? noItems, hasOlder: Boolean(news.data?.next), reload: news.reload };
}
