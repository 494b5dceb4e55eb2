import { appRoutePattern, appRoutes, newsItemPath, newsItemRoute, type NewsItem } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { useResource } from '@/lib/use-resource';

/** GET /api/v1/localnews/{id}/ with a Bearer token (docs/api.md, "Local news"); a 404 is an ApiError. */
export function getNewsItem(id: number, signal?: AbortSignal): Promise<NewsItem> {
  return apiJson<NewsItem>(newsItemPath(id), { auth: 'bearer', ...(signal ? { signal } : {}) });
}

const itemPage = appRoutePattern(appRoutes.newsItem);

/** The id in a page path (`/news/7`), or null when it is not one the server could have made. */
export function parseNewsId(param: string | undefined): number | null {
  return param !== undefined && itemPage.test(newsItemRoute(param)) ? Number(param) : null;
}

/** One item, loaded on mount and again when `id` changes. */
export function useNewsItem(id: number) {
  return useResource(`news-item-${id}`, (signal) => getNewsItem(id, signal), `news item ${id}`);
}
