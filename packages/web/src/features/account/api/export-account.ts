import { apiPaths } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';

export interface AccountExportFile {
  blob: Blob;
  /** The answer's Content-Disposition header (it names the file), or null. */
  contentDisposition: string | null;
}

/** GET /api/v1/user/export/ with a Bearer token: the account's data as one JSON file. */
export async function fetchAccountExport(): Promise<AccountExportFile> {
  const response = await apiFetch(apiPaths.exportAccount, { auth: 'bearer' });
  return { blob: await response.blob(), contentDisposition: response.headers.get('Content-Disposition') };
}
