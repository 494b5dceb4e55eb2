import { useEffect, useRef, useState } from 'react';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
// The worker is served as a file of our own origin: the CSP allows no blob: or eval'd scripts.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { texts } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { PDF_SCALE } from '@/config/constants';
import { useDevicePixelRatio } from './use-device-pixel-ratio';
import './pdf.css';

GlobalWorkerOptions.workerSrc = workerUrl;

type Status = 'loading' | 'ready' | 'failed';

/** Draws one page of a PDF on a canvas with pdf.js, with Prev / Next and a `page / total` line. */
export function PdfViewer({ url }: { url: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [pageNumber, setPageNumber] = useState(1);
  const ratio = useDevicePixelRatio();

  useEffect(() => {
    // isEvalSupported: false — pdf.js would otherwise compile fonts with new Function(), which
    // our Content-Security-Policy forbids.
    const task = getDocument({ url, isEvalSupported: false });
    let active = true;
    task.promise.then(
      (loaded) => {
        if (!active) return;
        setDoc(loaded);
        setPageNumber(1);
        setStatus('ready');
      },
      (error: unknown) => {
        if (!active) return;
        console.error('Could not load the PDF', error);
        setStatus('failed');
      },
    );
    return () => {
      active = false;
      void task.destroy();
    };
  }, [url]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas) return;
    let task: RenderTask | null = null;
    let active = true;
    doc
      .getPage(pageNumber)
      .then((page) => {
        if (!active) return;
        const viewport = page.getViewport({ scale: PDF_SCALE });
        // Backing store in device pixels, CSS size in CSS pixels: sharp on high-density screens.
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.style.height = `${Math.floor(viewport.height)}px`;
        task = page.render({
          canvas,
          viewport,
          transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
        });
        return task.promise;
      })
      .catch((error: unknown) => {
        // A newer page replaced this render: not an error.
        if ((error as { name?: string } | null)?.name === 'RenderingCancelledException') return;
        console.error('Could not draw the PDF page', error);
      });
    return () => {
      active = false;
      task?.cancel();
    };
  }, [doc, pageNumber, ratio]);

  const total = doc?.numPages ?? 0;
  return (
    <div className="pdf-viewer">
      {status === 'loading' && <Loading />}
      {status === 'ready' && (
        <div className="pdf-toolbar">
          <Button variant="quiet" onClick={() => setPageNumber((n) => n - 1)} disabled={pageNumber <= 1}>
            {texts.prev}
          </Button>
          <span className="pdf-indicator" aria-live="polite">
            {`${pageNumber} / ${total}`}
          </span>
          <Button variant="quiet" onClick={() => setPageNumber((n) => n + 1)} disabled={pageNumber >= total}>
            {texts.next}
          </Button>
        </div>
      )}
      <div className="pdf-canvas-wrap" hidden={status !== 'ready'}>
        <canvas ref={canvasRef} className="pdf-canvas" aria-label={`PDF page ${pageNumber}`} role="img" />
      </div>
    </div>
  );
}
