import { useEffect, useRef, useState, type ReactElement } from 'react';
import { demoPdfIds, texts } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { PRINT_URL_REVOKE_MS } from '@/config/constants';
import { fetchPdf } from '../api/fetch-pdf';
import './pdf.css';

export interface PdfPrinter {
  /** True from the click until the frame has loaded the PDF. */
  busy: boolean;
  /** Fetches the PDF, loads it into the hidden frame and opens the print dialog for it. */
  print: () => void;
  /** The hidden frame: render it once, anywhere in the page. */
  frame: ReactElement;
}

/**
 * Prints PDF `id`, fetched with credentials, from a hidden frame. Used by the print page's button and
 * by the viewer's toolbar (docs/web-app.md, "Pages").
 */
export function usePdfPrinter(id: number): PdfPrinter {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [busy, setBusy] = useState(false);
  const timers = useRef<number[]>([]);

  useEffect(() => () => timers.current.forEach((timer) => clearTimeout(timer)), []);

  const run = async () => {
    const frame = frameRef.current;
    if (!frame) return;
    setBusy(true);
    try {
      const { blob } = await fetchPdf(id, 'include');
      const url = URL.createObjectURL(blob);
      frame.onload = () => {
        frame.onload = null;
        setBusy(false);
        // The frame takes focus to print (some browsers print the focused window); the user's place,
        // the Print button as a rule, gets it back, not the hidden frame (docs/web-app.md, "Accessibility").
        const back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        try {
          frame.contentWindow?.focus();
          frame.contentWindow?.print();
        } catch (error) {
          console.error('Could not open the print dialog', error);
        } finally {
          back?.focus();
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

  const frame = <iframe ref={frameRef} className="print-frame" title="PDF to print" aria-hidden="true" tabIndex={-1} />;
  return { busy, print: () => void run(), frame };
}

/**
 * Fetches PDF 3 with credentials, loads it into a hidden frame and opens the print dialog for it.
 * The button reads `Wait...` until the frame has loaded (docs/web-app.md, "Pages").
 */
export function PrintPdfButton({ id = demoPdfIds.print }: { id?: number }) {
  const { busy, print, frame } = usePdfPrinter(id);
  return (
    <>
      <Button onClick={print} disabled={busy} aria-busy={busy}>
        {busy ? texts.wait : texts.clickToPrint}
      </Button>
      {frame}
    </>
  );
}
