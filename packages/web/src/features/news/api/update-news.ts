import { newsItemPath, type NewsItem } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { xhrTransport } from '@/lib/xhr-transport';

export interface UpdateNewsInput {
  title: string;
  content: string;
  /** Files to add. */
  files?: ArrayLike<File> | undefined;
  /** Ids of the item's files to remove. */
  remove_files: readonly string[];
}

/**
 * PATCH /api/v1/localnews/{id}/ (docs/api.md, "Local news"), the author's edit: multipart with the new files
 * under `files` and the ids to remove under `remove_files`, each repeated, and the Bearer header.
 * Through XMLHttpRequest for upload progress, like createNews.
 */
export function updateNews(
  id: number,
  input: UpdateNewsInput,
  onProgress: (fraction: number) => void,
): Promise<NewsItem> {
  const form = new FormData();
  form.append('title', input.title);
  form.append('content', input.content);
  for (const file of Array.from(input.files ?? [])) form.append('files', file, file.name);
  for (const fileId of input.remove_files) form.append('remove_files', fileId);
  return apiJson<NewsItem>(newsItemPath(id), {
    method: 'PATCH',
    auth: 'bearer',
    form,
    transport: xhrTransport,
    onUploadProgress: onProgress,
  });
}
