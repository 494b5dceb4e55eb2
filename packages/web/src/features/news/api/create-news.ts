import { apiPaths, type NewsItem } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { xhrTransport } from '@/lib/xhr-transport';

export interface CreateNewsInput {
  title: string;
  content: string;
  files: ArrayLike<File>;
}

/**
 * POST /api/v1/localnews/new: multipart with every file under the same `files` name, and the
 * Token header (docs/api.md, "Authentication"). Goes through XMLHttpRequest, which, unlike fetch, reports upload progress.
 */
export function createNews(input: CreateNewsInput, onProgress: (fraction: number) => void): Promise<NewsItem> {
  const form = new FormData();
  form.append('title', input.title);
  form.append('content', input.content);
  for (const file of Array.from(input.files)) form.append('files', file, file.name);
  return apiJson<NewsItem>(apiPaths.localNewsNew, {
    method: 'POST',
    auth: 'token',
    form,
    transport: xhrTransport,
    onUploadProgress: onProgress,
  });
}
