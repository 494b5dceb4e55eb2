import { useEffect, useRef, useState } from 'react';
import { demoPdfIds, texts } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { PRINT_URL_REVOKE_MS } from '@/config/constants';
import { fetchPdf } from '../api/fetch-pdf';
import './pdf.css';

/**
 * Fetches PDF 3 with credentials, loads it into a hidden frame and opens the print dialog for it.
 * The button reads `Wait...` until the frame has loaded (docs/web-app.md, "Pages").
 */
export function PrintPdfButton({ id = demoPdfIds.print }: { id?: number }) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [busy, setBusy] = useState(false);
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((timer) => clearTimeout(timer)), []);

  const onClick = async () => {
    const frame = frameRef.current;
    if (!frame) return;
    setBusy(true);
    try {
      const { blob } = await fetchPdf(id, 'include');
      const url = URL.createObjectURL(blob);
      frame.onload = () => {
        frame.onload = null;
        setBusy(false);
        try {
          frame.contentWindow?.focus();
          frame.contentWindow?.print();
        } catch (error) {
          console.error('Could not open the print dialog', error);
        } finally {
          // docs/web-app.md, "Constants": the object URL is revoked 1 second after printing starts.
          timers.current.push(window.setTimeout(() => URL.revokeObjectURL(url), PRINT_URL_REVOKE_MS));
        }
      };
      frame.src = url;
    } catch (error) {
      console.error('Could not fetch the PDF to print', error);
      setBusy(false);
    }
  };

  return (
    <>
      <Button onClick={() => void onClick()} disabled={busy} aria-busy={busy}>
        {busy ? texts.wait : texts.clickToPrint}
      </Button>
      <iframe ref={frameRef} className="print-frame" title="PDF to print" aria-hidden="true" tabIndex={-1} />
    </>
  );
}
