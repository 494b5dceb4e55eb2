import { useState } from 'react';
import { demoPdfIds } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { fetchPdf } from '../api/fetch-pdf';

/** How long the object URL outlives the click: enough for the browser to start saving. */
const DOWNLOAD_URL_LIFETIME_MS = 30_000;

/** Saves a Blob under a name by clicking a temporary `<a download>`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
}

/**
 * Fetches PDF `id` and saves it under the file name the server gives in Content-Disposition
 * (`document-{id}.pdf` when it gives none); answers the name it was saved under.
 */
export async function downloadPdf(id: number): Promise<string> {
  const { blob, filename } = await fetchPdf(id);
  const name = filename ?? `document-${id}.pdf`;
  saveBlob(blob, name);
  return name;
}

/** Downloads PDF 1 under the file name the server gives in Content-Disposition. */
export function DownloadPdfButton({ id = demoPdfIds.download }: { id?: number }) {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const onClick = async () => {
    setBusy(true);
    setSaved(null);
    try {
      setSaved(await downloadPdf(id));
    } catch (error) {
      console.error('Could not download the PDF', error); // docs/web-app.md, "Failures": logged only
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row">
      <Button onClick={() => void onClick()} disabled={busy} aria-busy={busy}>
        {busy ? 'Downloading…' : 'Download PDF'}
      </Button>
      <p role="status" className="muted">
        {saved && `Saved as ${saved}`}
      </p>
    </div>
  );
}
