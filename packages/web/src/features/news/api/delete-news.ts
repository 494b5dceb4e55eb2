import { newsItemPath } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';

/** DELETE /api/v1/localnews/{id}/ with a Bearer token (docs/api.md, "Local news"): 204, or an ApiError. */
export async function deleteNews(id: number): Promise<void> {
  await apiFetch(newsItemPath(id), { method: 'DELETE', auth: 'bearer' });
}
