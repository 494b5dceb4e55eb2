import type { FastifyInstance } from 'fastify';
import { apiPaths, type NewsItem } from '@hello/contract';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';

/** A stored item as the API answers it: each file with its signed link (valid until the next expiry step after `nowMs`). */
export function newsItemMapper(app: FastifyInstance) {
  const fileUrl = (id: number, nowMs?: number) =>
    `${apiPaths.localNewsFile.replace(':id', String(id))}?${app.urlSigner.sign(id, nowMs)}`;
  return (item: NewsItemWithFiles, nowMs?: number): NewsItem => ({
    ...item,
    files: item.files.map((f) => ({
      id: f.id,
      name: f.original_name,
      size: f.size,
      content_type: f.content_type,
      url: fileUrl(f.id, nowMs),
    })),
  });
}
