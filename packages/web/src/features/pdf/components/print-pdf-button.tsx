import { useEffect, useRef, useState, type ReactElement } from 'react';
import { demoPdfIds, texts } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { PRINT_URL_REVOKE_MS } from '@/config/constants';
import { fetchPdf } from '../api/fetch-pdf';
import './pdf.css';

/** A frame that has not loaded the PDF by then never will (no PDF viewer): the button is freed. */
const PRINT_FRAME_TIMEOUT_MS = 15_000;
/** How long a PDF opened in a tab of its own stays readable there: time to print or save it. */
const PRINT_TAB_URL_LIFETIME_MS = 60_000;

export interface PdfPrinter {
  /** True from the click until the frame has loaded the PDF (or given up). */
  busy: boolean;
  /** Fetches the PDF, loads it into the hidden frame and opens the print dialog for it. */
  print: () => void;
  /** The hidden frame: render it once, anywhere in the page. */
  frame: ReactElement;
}

/**
 * Prints PDF `id`, fetched with credentials, from a hidden frame. Used by the print page's button and
 * by the viewer's toolbar (docs/web-app.md, "Pages"). A browser that shows no PDF in a frame
 * (`navigator.pdfViewerEnabled` false, e.g. Android Chrome) gets it in a new tab to print from there.
 */
export function usePdfPrinter(id: number): PdfPrinter {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(false);
  const timers = useRef(new Set<number>());
  /** Object URLs not revoked yet: revoked on unmount too, not left for the page's lifetime. */
  const urls = useRef(new Set<string>());

  useEffect(() => {
    mounted.current = true;
    const pendingTimers = timers.current;
    const pendingUrls = urls.current;
    return () => {
      mounted.current = false;
      pendingTimers.forEach((timer) => clearTimeout(timer));
      pendingTimers.clear();
      pendingUrls.forEach((url) => URL.revokeObjectURL(url));
      pendingUrls.clear();
    };
  }, []);

  const later = (ms: number, action: () => void): number => {
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      action();
    }, ms);
    timers.current.add(timer);
    return timer;
  };
  const cancel = (timer: number) => {
    clearTimeout(timer);
    timers.current.delete(timer);
  };
  const revoke = (url: string) => {
    URL.revokeObjectURL(url);
    urls.current.delete(url);
  };

  const run = async () => {
    const frame = frameRef.current;
    if (!frame) return;
    setBusy(true);
    // The frame would never load it; a tab of its own offers the PDF to print (or save). Opened now,
    // while the click still lets a page open one: after the fetch a popup blocker may refuse it.
    const tab = navigator.pdfViewerEnabled === false ? window.open('', '_blank') : null;
    try {
      const { blob } = await fetchPdf(id, 'include');
      if (!mounted.current) {
        tab?.close();
        return; // no URL that nothing would revoke
      }
      const url = URL.createObjectURL(blob);
      urls.current.add(url);
      if (navigator.pdfViewerEnabled === false) {
        if (tab) tab.location.href = url;
        else console.error('Could not open the PDF to print in a new tab');
        later(PRINT_TAB_URL_LIFETIME_MS, () => revoke(url));
        setBusy(false);
        return;
      }
      const giveUp = later(PRINT_FRAME_TIMEOUT_MS, () => {
        frame.onload = null;
        revoke(url);
        console.error('Could not print the PDF', new Error('The frame did not load the PDF'));
        setBusy(false);
      });
      frame.onload = () => {
        frame.onload = null;
        cancel(giveUp);
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
          later(PRINT_URL_REVOKE_MS, () => revoke(url));
        }
      };
      frame.src = url;
    } catch (error) {
      tab?.close();
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
