import type { NewsFile, NewsItem } from '@hello/contract';

/** A file of a news item; its signed `url` is fake but unique. */
export function newsFile(id: number, name: string, content_type = 'application/pdf', size = 2048): NewsFile {
  return { id, name, size, content_type, url: `/api/v1/localnews/files/${id}?sig=test` };
}

/** A news item with one PDF unless told otherwise. */
export function newsItem(id: number, overrides: Partial<NewsItem> = {}): NewsItem {
  return {
    id,
    title: `Title ${id}`,
    content: `Content ${id}`,
    created_at: `2026-03-${String((id % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    author: 'author@example.com',
    files: [newsFile(id * 10, `file-${id}.pdf`)],
    ...overrides,
  };
}
