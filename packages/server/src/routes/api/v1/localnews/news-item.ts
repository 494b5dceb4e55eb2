import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiPaths, newsItem, type NewsItem } from '@hello/contract';
import type { NewsItemWithFiles } from '../../../../repositories/news.js';

/** A stored item as the API answers it: each file with its signed link (valid until the next expiry step after `nowMs`). */
export function newsItemMapper(app: FastifyInstance) {
  const fileUrl = (id: number, storageName: string, nowMs?: number) =>
    `${apiPaths.localNewsFile.replace(':id', String(id))}?${app.urlSigner.sign(id, storageName, nowMs)}`;
  return (item: NewsItemWithFiles, nowMs?: number): NewsItem => ({
    ...item,
    files: item.files.map((f) => ({
      id: f.id,
      name: f.original_name,
      size: f.size,
      content_type: f.content_type,
      url: fileUrl(f.id, f.storage_name, nowMs),
    })),
  });
}

/**
 * A stored item's JSON as the API answers it, made by the item's schema (fast-json-stringify; Fastify
 * compiles it once per route): the list's items and a new item's 201 alike, so a page made again
 * from a posted item's JSON (news-page-cache.ts, `added`) holds the bytes the list would read.
 */
export function newsItemJson(reply: FastifyReply, toNewsItem: ReturnType<typeof newsItemMapper>) {
  const serialize = reply.compileSerializationSchema(newsItem) as (item: NewsItem) => string;
  return (item: NewsItemWithFiles, nowMs: number) => serialize(toNewsItem(item, nowMs));
}
