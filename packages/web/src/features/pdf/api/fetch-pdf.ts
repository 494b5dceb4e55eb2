import { downloadPdfPath } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { filenameFromContentDisposition } from '../utils/content-disposition';

export interface FetchedPdf {
  blob: Blob;
  /** From the Content-Disposition header; null when the server named none. */
  filename: string | null;
}

/** GET /download_pdf_by_id/{id} (anonymous), as a Blob with the server's file name. */
export async function fetchPdf(id: number, credentials?: RequestCredentials): Promise<FetchedPdf> {
  const response = await apiFetch(downloadPdfPath(id), {
    accept: 'application/pdf',
    ...(credentials ? { credentials } : {}),
  });
  const body = await response.blob();
  // The print frame needs the PDF type to pick the browser's PDF viewer.
  const blob = body.type ? body : new Blob([body], { type: 'application/pdf' });
  return { blob, filename: filenameFromContentDisposition(response.headers.get('Content-Disposition')) };
}
