import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { AuthLostError } from '@/lib/errors';
import { fetchAccountExport } from '../api/export-account';

/** Saves a downloaded file; answers the name it was saved under (the route supplies the PDF pages' helper). */
export type SaveDownload = (blob: Blob, contentDisposition: string | null) => string;

/** `Export my data`: downloads the account's JSON with the Bearer token and saves it under the server's name. */
export function ExportButton({ save }: { save: SaveDownload }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const onClick = async () => {
    setBusy(true);
    setStatus('');
    try {
      const { blob, contentDisposition } = await fetchAccountExport();
      setStatus(`Saved as ${save(blob, contentDisposition)}`);
    } catch (error) {
      if (error instanceof AuthLostError) return;
      console.error('Could not export the account', error);
      setStatus('The export could not be downloaded. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="row">
      <Button variant="secondary" onClick={() => void onClick()} disabled={busy} aria-busy={busy}>
        {busy ? 'Preparing…' : 'Export my data'}
      </Button>
      <p role="status" className="muted">
        {status}
      </p>
    </div>
  );
}
