import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { GlobalWorkerOptions, TextLayer, type PDFDocumentProxy, type PDFPageProxy, type RenderTask } from 'pdfjs-dist';
// The worker is served as a file of our own origin: the CSP allows no blob: or eval'd scripts.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { texts } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { PDF_SCALE } from '@/config/constants';
import { isPdfMissing, openPdf, type OpenedPdf } from '../api/open-pdf';
import { highlightHits } from '../utils/highlight';
import {
  ACTUAL_SIZE,
  canvasSize,
  FIT_WIDTH,
  MAX_ZOOM,
  MIN_ZOOM,
  pageAnnouncement,
  pageForKey,
  pageNumberError,
  parsePageNumber,
  percent,
  scaleOf,
  startZoom,
  zoomInFrom,
  zoomOutFrom,
  type Zoom,
} from '../utils/viewer';
import { downloadPdf } from './download-pdf-button';
import { PdfMissing } from './pdf-missing';
import { PdfSearch } from './pdf-search';
import { usePdfPrinter } from './print-pdf-button';
import { usePdfSearch } from './use-pdf-search';
import { useDevicePixelRatio } from './use-device-pixel-ratio';
import './pdf.css';
import './text-layer.css';

GlobalWorkerOptions.workerSrc = workerUrl;

type Status = 'loading' | 'ready' | 'missing' | 'failed';

/** A page pdf.js could not fetch or draw (not a cancelled drawing): the page area says so. */
interface PageFailure {
  pageNumber: number;
  stage: 'fetch' | 'draw';
}

/** Stops an opened PDF's fetches and loading, and frees its document once it has one. */
function closePdf(opened: OpenedPdf): void {
  opened.cancel();
  void opened.task.then(
    (task) => task.destroy(),
    () => undefined,
  );
}

/** What ← and → scroll a page wider than its box by, in CSS pixels: a browser's arrow-key step. */
const SIDEWAYS_STEPS: Partial<Record<string, number>> = { ArrowLeft: -40, ArrowRight: 40 };

/** A cancelled render or text layer is replaced by a newer one: not an error. */
function isCancellation(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'RenderingCancelledException' || name === 'AbortException';
}

/** Horizontal padding and border of an element: what its content box leaves of its width. */
function horizontalChrome(element: Element): number {
  const style = getComputedStyle(element);
  return ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth']
    .map((property) => parseFloat(style[property as 'paddingLeft']) || 0)
    .reduce((a, b) => a + b, 0);
}

/**
 * Draws one page of a PDF with pdf.js: a canvas at the device's pixel density with pdf.js's text
 * layer over it (selectable, copyable, found by the browser's find), Prev / Next, `page / total`, a
 * page number field, zoom, keys, Download and Print (docs/web-app.md, "PDF viewer").
 * `id` names the PDF for Download and Print, which fetch it as their own pages do.
 */
export function PdfViewer({ url, id }: { url: string; id?: number }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textLayerRef = useRef<HTMLDivElement>(null);
  /** Raised by every render: a render that finishes after a newer one started leaves no mark. */
  const generation = useRef(0);
  /** The text layer drawn last (its spans and their texts), for the search's marks; null while drawing. */
  const drawnText = useRef<{ divs: HTMLElement[]; items: string[] } | null>(null);
  const [textDrawn, setTextDrawn] = useState(0);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<PDFPageProxy | null>(null);
  /** The page the canvas shows drawn in full; null while another one is fetched or drawn over it. */
  const [drawn, setDrawn] = useState<PDFPageProxy | null>(null);
  const [failure, setFailure] = useState<PageFailure | null>(null);
  /** Raised by Retry after a failed drawing: the page is drawn anew. */
  const [redraws, setRedraws] = useState(0);
  /** The document Retry opens anew after a failed fetch, until it has replaced `doc`. */
  const reopening = useRef<OpenedPdf | null>(null);
  /** The last document so opened, shown now: freed with the viewer. */
  const reopened = useRef<PDFDocumentProxy | null>(null);
  /** The page asked for while it is neither drawn nor failed: the one a lost piece leaves waiting. */
  const waitingFor = useRef<number | null>(null);
  /** Pages a lost piece left waiting in the document shown: pdf.js never asks for a piece again. */
  const stalled = useRef(new Set<number>());
  /** null until the reader picks a zoom: the start zoom then follows the box (see startZoom). */
  const [chosenZoom, setChosenZoom] = useState<Zoom | null>(null);
  /** Width in CSS pixels the page may take in its box; 0 while unmeasured. */
  const [available, setAvailable] = useState(0);
  const [draft, setDraft] = useState<string | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const printer = usePdfPrinter(id ?? 0);
  const ratio = useDevicePixelRatio();
  const fieldId = useId();
  const errorId = useId();

  // A piece openPdf gave up after its retries: pdf.js would wait for it for ever, so the page left
  // waiting, if any, fails as a fetch does (Retry opens the document anew).
  const pieceLost = useCallback(() => {
    const waiting = waitingFor.current;
    if (waiting === null) return;
    stalled.current.add(waiting);
    setFailure({ pageNumber: waiting, stage: 'fetch' });
  }, []);

  useEffect(() => {
    let active = true;
    let opening = true;
    // By ranges: a large PDF shows its first page long before the whole file could have arrived.
    const opened = openPdf(url, {
      // Lost before the document opened: it never will, a failure to load it.
      onPieceFailed: () => {
        if (!active) return;
        if (opening) setStatus('failed');
        else pieceLost();
      },
    });
    opened.task
      .then((task) => task.promise)
      .then(
        (loaded) => {
          if (!active) return;
          opening = false;
          stalled.current.clear();
          setDoc(loaded);
          setPageNumber(1);
          setStatus('ready');
        },
        (error: unknown) => {
          if (!active) return;
          console.error('Could not load the PDF', error);
          // The viewer's page is the prototype's, whose failures are only logged (docs/web-app.md,
          // "Failures"); a PDF that `?id=` names and the server does not have is said so.
          setStatus(isPdfMissing(error) ? 'missing' : 'failed');
        },
      );
    return () => {
      active = false;
      closePdf(opened);
      if (reopening.current) closePdf(reopening.current);
      reopening.current = null;
      void reopened.current?.destroy();
      reopened.current = null;
    };
  }, [url, pieceLost]);

  // pdf.js appends a hidden canvas to <body> to measure text; it goes with the viewer.
  const usedTextLayer = useRef(false);
  useEffect(
    () => () => {
      if (usedTextLayer.current) TextLayer.cleanup();
    },
    [],
  );

  // The width the page may take: the viewer's width less the padding and border of the page's box.
  useLayoutEffect(() => {
    const root = rootRef.current;
    const wrap = wrapRef.current;
    if (!root || !wrap) return;
    const measure = () => setAvailable(Math.max(0, Math.floor(root.clientWidth - horizontalChrome(wrap))));
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!doc) return;
    let active = true;
    doc.getPage(pageNumber).then(
      (loaded) => {
        if (!active) return;
        setPage(loaded);
        // Another page is about to be drawn over the canvas: it no longer shows a whole page.
        setDrawn((shown) => (shown === loaded ? shown : null));
      },
      (error: unknown) => {
        if (!active) return;
        console.error('Could not load the PDF page', error);
        setFailure({ pageNumber, stage: 'fetch' });
      },
    );
    return () => {
      active = false;
    };
  }, [doc, pageNumber]);

  // A page left behind gives back what drawing it took (operator lists, images): paging through a
  // long document keeps memory flat. pdf.js waits for a render still running to be cancelled.
  useEffect(() => () => void page?.cleanup(), [page]);

  const pageWidth = page ? page.getViewport({ scale: 1 }).width : 0;
  const zoom = chosenZoom ?? startZoom(available, pageWidth);
  const scale = page ? scaleOf(zoom, available, pageWidth) : null;

  useEffect(() => {
    const canvas = canvasRef.current;
    const textLayerDiv = textLayerRef.current;
    if (!page || scale === null || !canvas || !textLayerDiv) return;
    const current = ++generation.current;
    const viewport = page.getViewport({ scale });
    // Backing store in device pixels, CSS size in CSS pixels: sharp at every zoom, CSS-scaled only
    // past the canvas size browsers draw (canvasSize).
    const size = canvasSize(viewport.width, viewport.height, ratio);
    canvas.width = size.width;
    canvas.height = size.height;
    canvas.style.width = `${size.cssWidth}px`;
    canvas.style.height = `${size.cssHeight}px`;
    delete canvas.dataset.renderedScale;
    const { outputScale } = size;
    const task: RenderTask = page.render({
      canvas,
      viewport,
      transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
    });
    task.promise.then(
      () => {
        if (current !== generation.current) return;
        // For tests and debugging: the scale the canvas shows, once it is drawn.
        canvas.dataset.renderedScale = String(scale);
        stalled.current.delete(page.pageNumber);
        setDrawn(page);
        setFailure((failed) => (failed?.pageNumber === page.pageNumber ? null : failed));
      },
      (error: unknown) => {
        // Cancelled: a newer drawing (another page or zoom) took its place, or the document was freed.
        if (isCancellation(error)) return;
        console.error('Could not draw the PDF page', error);
        if (current !== generation.current) return;
        // pdf.js keeps a failed drawing's operator list and would fail with it again: dropped, so
        // the next drawing of the page (Retry, a zoom) starts afresh.
        page.cleanup();
        setFailure({ pageNumber: page.pageNumber, stage: 'draw' });
      },
    );

    // The text layer: transparent text positioned over the drawing, sized by --total-scale-factor.
    textLayerDiv.replaceChildren();
    drawnText.current = null;
    let textLayer: TextLayer | null = null;
    if (typeof page.streamTextContent === 'function') {
      usedTextLayer.current = true;
      textLayer = new TextLayer({ textContentSource: page.streamTextContent(), container: textLayerDiv, viewport });
      const layer = textLayer;
      layer.render().then(
        () => {
          // Removes pdf.js's measuring canvas from <body> once no text layer needs it.
          TextLayer.cleanup();
          if (current !== generation.current) return;
          drawnText.current = { divs: layer.textDivs, items: layer.textContentItemsStr };
          setTextDrawn((n) => n + 1);
        },
        (error: unknown) => {
          if (!isCancellation(error)) console.error('Could not lay out the text of the PDF page', error);
        },
      );
    }
    return () => {
      task.cancel();
      textLayer?.cancel();
    };
  }, [page, scale, ratio, redraws]);

  const total = doc?.numPages ?? 0;

  const goTo = useCallback((target: number) => {
    setPageNumber(target);
    setDraft(null);
    setPageError(null);
    // A page a lost piece left waiting would only wait again: said at once.
    setFailure(stalled.current.has(target) ? { pageNumber: target, stage: 'fetch' } : null);
  }, []);

  const search = usePdfSearch(doc, pageNumber, goTo);
  const { query } = search.state;
  const { selectedOnPage } = search;
  // The hits on the page shown, marked in its text layer once it is drawn; the current one in view.
  useEffect(() => {
    const drawn = drawnText.current;
    if (!drawn) return;
    const mark = highlightHits(drawn.divs, drawn.items, query, selectedOnPage);
    mark?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [textDrawn, query, selectedOnPage]);

  const onSubmitPage = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = parsePageNumber(draft ?? String(pageNumber), total);
    if (target === null) setPageError(pageNumberError(total));
    else goTo(target);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (status !== 'ready' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    // Keys typed into the page number field edit it.
    if ((event.target as Element).closest('input, textarea, select, [contenteditable="true"]')) return;
    const wrap = wrapRef.current;
    const scrollsSideways = wrap !== null && wrap.scrollWidth > wrap.clientWidth;
    const target = pageForKey(event.key, pageNumber, total, scrollsSideways);
    if (target !== null) {
      event.preventDefault();
      if (target !== pageNumber) goTo(target);
      return;
    }
    // ← → scroll the page's box instead. The browser does so when focus is in the box; from the
    // region or a toolbar button it would scroll the document, not the box: done here then.
    const step = SIDEWAYS_STEPS[event.key];
    if (wrap && scrollsSideways && step !== undefined && !wrap.contains(event.target as Node)) {
      event.preventDefault();
      wrap.scrollLeft += step;
    }
  };

  const onDownload = async () => {
    if (id === undefined) return;
    setDownloading(true);
    try {
      await downloadPdf(id);
    } catch (error) {
      console.error('Could not download the PDF', error); // docs/web-app.md, "Failures": logged only
    } finally {
      setDownloading(false);
    }
  };

  // Retry: pdf.js keeps a page's failed fetch for the document's life, so the document is opened
  // anew (the one shown stays, for other pages, until it is replaced); a failed drawing is redrawn.
  // Focus goes to the viewer, not to <body> with the button: the keys still page from there.
  const retryPage = ({ pageNumber: failedPage, stage }: PageFailure) => {
    rootRef.current?.focus({ preventScroll: true });
    setFailure(null);
    if (stage === 'draw') {
      setRedraws((n) => n + 1);
      return;
    }
    if (reopening.current) closePdf(reopening.current);
    const opened = openPdf(url, { onPieceFailed: pieceLost });
    reopening.current = opened;
    const replaced = doc;
    opened.task
      .then((task) => task.promise)
      .then(
        (loaded) => {
          if (reopening.current !== opened) return;
          reopening.current = null;
          reopened.current = loaded;
          stalled.current.clear();
          setDoc(loaded);
          void replaced?.destroy();
        },
        (error: unknown) => {
          if (reopening.current !== opened) return;
          reopening.current = null;
          closePdf(opened); // its worker too
          console.error('Could not load the PDF page', error);
          setFailure({ pageNumber: failedPage, stage: 'fetch' });
        },
      );
  };

  // From the zoom of the latest click, not of the last render: quick clicks each take one step.
  const zoomBy = (step: (scale: number) => number) =>
    setChosenZoom((previous) => ({
      mode: 'scale',
      scale: step(scaleOf(previous ?? startZoom(available, pageWidth), available, pageWidth)),
    }));

  // The page asked for is not drawn yet (over range requests that may take a while): the page area
  // says Loading rather than show the previous page under the new number. The number changes at
  // once, as in pdf.js's and browsers' viewers: the click is seen to work, and Prev, Next and the
  // keys step from the page asked for.
  const failed = status === 'ready' && failure?.pageNumber === pageNumber ? failure : null;
  const pending = status === 'ready' && !failed && drawn?.pageNumber !== pageNumber;
  useEffect(() => {
    waitingFor.current = pending ? pageNumber : null;
  }, [pending, pageNumber]);
  const shownScale = scale ?? 1;
  const fit = zoom.mode === 'fit';
  const actual = zoom.mode === 'scale' && zoom.scale === PDF_SCALE;
  const pageStyle = {
    '--scale-factor': shownScale,
    '--total-scale-factor': shownScale,
    '--scale-round-x': '1px',
    '--scale-round-y': '1px',
  } as CSSProperties;

  return (
    <div
      ref={rootRef}
      className="pdf-viewer"
      role="region"
      aria-label="PDF document"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      {status === 'loading' && <Loading />}
      {status === 'missing' && <PdfMissing />}
      {status === 'ready' && (
        <div className="pdf-toolbar">
          <div className="pdf-group" role="group" aria-label="Pages">
            <Button variant="quiet" onClick={() => goTo(pageNumber - 1)} disabled={pageNumber <= 1}>
              {texts.prev}
            </Button>
            <span className="pdf-indicator">{`${pageNumber} / ${total}`}</span>
            <Button variant="quiet" onClick={() => goTo(pageNumber + 1)} disabled={pageNumber >= total}>
              {texts.next}
            </Button>
            <form className="pdf-goto" onSubmit={onSubmitPage} noValidate>
              <label htmlFor={fieldId}>
                <span className="pdf-wide-only">Go to </span>
                <span className="pdf-goto-word">page</span>
              </label>
              <input
                id={fieldId}
                // The same name on phones, where the label shows only "Page".
                aria-label="Go to page"
                name="page"
                className="pdf-page-field"
                inputMode="numeric"
                autoComplete="off"
                enterKeyHint="go"
                value={draft ?? String(pageNumber)}
                onChange={(event) => {
                  setDraft(event.target.value);
                  setPageError(null);
                }}
                aria-invalid={pageError ? true : undefined}
                aria-describedby={pageError ? errorId : undefined}
              />
            </form>
            {/* Under the field's row, not under the whole toolbar (three rows on a phone). */}
            {pageError && (
              <p id={errorId} className="pdf-error" role="alert">
                {pageError}
              </p>
            )}
          </div>
          <div className="pdf-group" role="group" aria-label="Zoom">
            <Button
              variant="quiet"
              className="pdf-zoom-step"
              aria-label="Zoom out"
              title="Zoom out"
              onClick={() => zoomBy(zoomOutFrom)}
              disabled={shownScale <= MIN_ZOOM}
            >
              −
            </Button>
            <span className="pdf-zoom-level" title={fit ? 'Fit width' : 'Zoom'}>
              {percent(shownScale)}
            </span>
            <Button
              variant="quiet"
              className="pdf-zoom-step"
              aria-label="Zoom in"
              title="Zoom in"
              onClick={() => zoomBy(zoomInFrom)}
              disabled={shownScale >= MAX_ZOOM}
            >
              +
            </Button>
            <Button variant="quiet" aria-pressed={fit} onClick={() => setChosenZoom(FIT_WIDTH)}>
              Fit width
            </Button>
            <Button variant="quiet" aria-pressed={actual} onClick={() => setChosenZoom(ACTUAL_SIZE)}>
              Actual size
            </Button>
          </div>
          <PdfSearch search={search} />
          {id !== undefined && (
            <div className="pdf-group" role="group" aria-label="File">
              <Button variant="quiet" onClick={() => void onDownload()} disabled={downloading} aria-busy={downloading}>
                Download
              </Button>
              <Button variant="quiet" onClick={printer.print} disabled={printer.busy} aria-busy={printer.busy}>
                {printer.busy ? texts.wait : 'Print'}
              </Button>
              {printer.frame}
            </div>
          )}
        </div>
      )}
      <div ref={wrapRef} className="pdf-canvas-wrap" hidden={status !== 'ready'}>
        <div
          className={failed ? 'pdf-page pdf-page-failed' : pending ? 'pdf-page pdf-page-pending' : 'pdf-page'}
          style={pageStyle}
        >
          <canvas ref={canvasRef} className="pdf-canvas" aria-label={`PDF page ${pageNumber}`} role="img" />
          <div ref={textLayerRef} className="textLayer" />
          {/* Not a second role=status: the viewer's own already says the page (`Page N of M`). */}
          {pending && (
            <p className="loading pdf-page-loading">
              <span className="loading-dot" aria-hidden="true" />
              {texts.loading}
            </p>
          )}
          {failed && (
            // The app's error alert, written out: the Alert component lives in the home page's chunk,
            // and importing it from here would add an export to that chunk, whose budget is all but spent.
            <div className="pdf-page-failure alert alert-error" role="alert">
              <p className="alert-title">This page could not be shown.</p>
              <Button onClick={() => retryPage(failed)}>Retry</Button>
            </div>
          )}
        </div>
      </div>
      <p className="pdf-sr-only" role="status">
        {status === 'ready' ? pageAnnouncement(pageNumber, total) : ''}
      </p>
    </div>
  );
}
