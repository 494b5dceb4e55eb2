import { readFileSync } from 'node:fs';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { downloadPdfPath } from '@hello/contract';
import { deferred, mockFetch } from '../../../../test/helpers';

// pdf.js needs a real canvas and worker; here it is replaced by a document of 3 pages so the
// viewer's own behaviour (indicator, buttons, canvas sizing) is what gets tested.
const pdfjs = vi.hoisted(() => ({
  getDocument: vi.fn(),
  GlobalWorkerOptions: { workerSrc: '' },
  // Lays out a page's text items (given as its textContentSource) as spans, as pdf.js's does.
  TextLayer: Object.assign(
    vi.fn(function (
      this: { render: () => Promise<void>; cancel: () => void; textDivs: HTMLElement[]; textContentItemsStr: string[] },
      { textContentSource, container }: { textContentSource: unknown; container: HTMLElement },
    ) {
      const items = Array.isArray(textContentSource) ? (textContentSource as string[]) : [];
      this.textDivs = [];
      this.textContentItemsStr = items;
      this.render = () => {
        for (const text of items) {
          const span = document.createElement('span');
          span.textContent = text;
          container.append(span);
          this.textDivs.push(span);
        }
        return Promise.resolve();
      };
      this.cancel = vi.fn();
    }),
    { cleanup: vi.fn() },
  ),
}));
vi.mock('pdfjs-dist', () => pdfjs);
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min-hash.mjs' }));
// How the PDF's bytes arrive (by ranges) is open-pdf.test.ts's; here the loading task comes straight
// from the getDocument mock, and a test gives a piece up by calling the onPieceFailed it was handed.
const opener = vi.hoisted(() => ({
  openPdf: vi.fn((url: string, _options?: { onPieceFailed?: (error: unknown) => void }) => ({
    task: Promise.resolve().then(() => pdfjs.getDocument({ url })),
    cancel: vi.fn(),
  })),
  // As open-pdf.ts tells a 404 from other failures: here, an error with that status.
  isPdfMissing: (error: unknown) => (error as { status?: number } | null)?.status === 404,
}));
vi.mock('../api/open-pdf', () => opener);

import { PdfViewer } from './pdf-viewer';

/** A document of `numPages` pages; `texts[n - 1]`, when given, are page n's text items. */
function fakeDocument(numPages: number, texts?: string[][]) {
  const render = vi.fn((_: { viewport: { scale: number } }) => ({ promise: Promise.resolve(), cancel: vi.fn() }));
  const getPage = vi.fn(async (n: number) => ({
    pageNumber: n,
    getViewport: ({ scale }: { scale: number }) => ({ scale, width: 612.4 * scale, height: 792 * scale }),
    render,
    streamTextContent: () => texts?.[n - 1] ?? 'text stream',
    getTextContent: async () => ({ items: (texts?.[n - 1] ?? []).map((str) => ({ str })) }),
    cleanup: vi.fn(),
  }));
  return { doc: { numPages, getPage, destroy: vi.fn() }, render, getPage };
}

/** Renders the viewer of a 3-page document (PDF 3) and waits for page 1 to be drawn. */
async function openViewer() {
  const { doc, render: renderPage, getPage } = fakeDocument(3);
  pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(doc), destroy: vi.fn() });
  const user = userEvent.setup();
  const view = render(<PdfViewer url="/download_pdf_by_id/3" id={3} />);
  expect(await screen.findByText('1 / 3')).toBeInTheDocument();
  await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(1));
  const canvas = screen.getByRole('img') as HTMLCanvasElement;
  await waitFor(() => expect(canvas.dataset.renderedScale).toBe('1'));
  return { user, view, renderPage, getPage, canvas };
}

/** Applies one of the viewer's stylesheets (vitest loads none), so jsdom computes what it hides. */
function applyStylesheet(file: string) {
  const style = document.createElement('style');
  style.textContent = readFileSync(`${__dirname}/${file}`, 'utf8');
  document.head.append(style);
  onTestFinished(() => style.remove());
}

const lastScale = (renderPage: ReturnType<typeof fakeDocument>['render']) =>
  renderPage.mock.lastCall?.[0].viewport.scale;

describe('PDF viewer', () => {
  beforeEach(() => {
    vi.stubGlobal('devicePixelRatio', 2);
  });

  it('shows Loading ..., then page 1 of 3 drawn crisp at scale 1, with Prev/Next disabled at the ends', async () => {
    const loaded = deferred<unknown>();
    const { doc, render: renderPage, getPage } = fakeDocument(3);
    pdfjs.getDocument.mockReturnValue({ promise: loaded.promise, destroy: vi.fn() });
    const user = userEvent.setup();
    render(<PdfViewer url="/download_pdf_by_id/3" />);

    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    expect(opener.openPdf).toHaveBeenCalledWith('/download_pdf_by_id/3', {
      onPieceFailed: expect.any(Function),
    });
    expect(pdfjs.GlobalWorkerOptions.workerSrc).toBe('/assets/pdf.worker.min-hash.mjs');
    loaded.resolve(doc);

    expect(await screen.findByText('1 / 3')).toBeInTheDocument();
    // Then over the page area until page 1 is drawn.
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    const prev = screen.getByRole('button', { name: 'Prev' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(prev).toHaveAttribute('aria-disabled', 'true');
    expect(next).not.toHaveAttribute('aria-disabled');

    await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(1));
    const canvas = screen.getByRole('img') as HTMLCanvasElement;
    expect(getPage).toHaveBeenLastCalledWith(1);
    // Backing store in device pixels, CSS size in CSS pixels.
    expect(canvas.width).toBe(1224);
    expect(canvas.height).toBe(1584);
    expect(canvas.style.width).toBe('612px');
    expect(canvas.style.height).toBe('792px');
    expect(renderPage).toHaveBeenCalledWith(expect.objectContaining({ canvas, transform: [2, 0, 0, 2, 0, 0] }));

    await user.click(next);
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    await user.click(next);
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(prev).not.toHaveAttribute('aria-disabled');
    await waitFor(() => expect(getPage).toHaveBeenLastCalledWith(3));
  });

  it('while a page loads, shows Loading over the page area, not the previous page under the new number', async () => {
    applyStylesheet('pdf.css');
    const { user, getPage, renderPage, canvas } = await openViewer();
    expect(screen.getByRole('img', { name: 'PDF page 1' })).toBe(canvas);
    const fetched = getPage.getMockImplementation()!;
    const arrives = deferred<void>();
    getPage.mockImplementationOnce(async (n) => {
      await arrives.promise;
      return fetched(n);
    });
    const drawing = deferred<void>();
    renderPage.mockImplementationOnce(() => ({ promise: drawing.promise, cancel: vi.fn() }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    // The number is the page asked for at once; page 1's drawing and text are hidden, Loading says why.
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    const loading = screen.getByText('Loading ...');
    expect(document.querySelector('.pdf-page')).toContainElement(loading);
    expect(canvas).not.toBeVisible();
    expect(document.querySelector('.textLayer')).not.toBeVisible();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();

    // Fetched, page 2 is being drawn: still Loading until the drawing is done.
    arrives.resolve();
    await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(2));
    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    expect(canvas).not.toBeVisible();
    drawing.resolve();
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.getByRole('img', { name: 'PDF page 2' })).toBeVisible();
    expect(screen.getByText('2 / 3')).toBeInTheDocument();

    // A zoom draws the same page again: no Loading, the page stays shown.
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(lastScale(renderPage)).toBe(1.1));
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(canvas).toBeVisible();
  });

  it('says a page that could not be fetched could not be shown; Retry opens the document anew and draws it', async () => {
    applyStylesheet('pdf.css');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, getPage, renderPage, canvas } = await openViewer();
    const first = pdfjs.getDocument.mock.results.at(-1)!.value as { promise: Promise<{ destroy: unknown }> };
    const firstDoc = await first.promise;
    // pdf.js keeps a page's failed fetch: this document never gives page 2.
    const fetched = getPage.getMockImplementation()!;
    getPage.mockImplementation(async (n) => {
      if (n === 2) throw new Error('Bad page');
      return fetched(n);
    });
    const viewer = screen.getByRole('region', { name: 'PDF document' });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be shown.');
    expect(document.querySelector('.pdf-page')).toContainElement(alert);
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(canvas).not.toBeVisible();
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('Could not load the PDF page', expect.any(Error));
    // The viewer's one status line stays the page's announcement.
    expect(within(viewer).getAllByRole('status')).toHaveLength(1);

    // Paging elsewhere still works, and clears the error.
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'PDF page 1' })).toBeVisible();

    // Back on page 2, Retry: a new document, in which page 2 arrives and is drawn.
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const again = await screen.findByRole('button', { name: 'Retry' });
    const { doc: second, render: secondRender } = fakeDocument(3);
    pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(second), destroy: vi.fn() });
    const drawing = deferred<void>();
    secondRender.mockImplementationOnce(() => ({ promise: drawing.promise, cancel: vi.fn() }));
    const opens = opener.openPdf.mock.calls.length;
    await user.click(again);
    expect(opener.openPdf).toHaveBeenCalledTimes(opens + 1);
    expect(viewer).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    await waitFor(() => expect(second.getPage).toHaveBeenLastCalledWith(2));
    drawing.resolve();
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.getByRole('img', { name: 'PDF page 2' })).toBeVisible();
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    expect(renderPage).toHaveBeenCalledTimes(2);
    expect(firstDoc.destroy).toHaveBeenCalled();
  });

  it('says a page whose data never came (a piece given up after its retries) could not be shown; Retry opens the document anew', async () => {
    applyStylesheet('pdf.css');
    const { user, getPage, canvas } = await openViewer();
    const first = pdfjs.getDocument.mock.results.at(-1)!.value as { promise: Promise<{ destroy: unknown }> };
    const firstDoc = await first.promise;
    const pieceFailed = opener.openPdf.mock.lastCall![1]!.onPieceFailed!;
    // Page 2 needs the piece given up: pdf.js waits for it for ever.
    const fetched = getPage.getMockImplementation()!;
    getPage.mockImplementation((n) => (n === 2 ? new Promise<never>(() => {}) : fetched(n)));

    // Given up while no page is waiting (pdf.js reading ahead): nothing to say.
    act(() => pieceFailed(new TypeError('network error')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    act(() => pieceFailed(new TypeError('network error')));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be shown.');
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(canvas).not.toBeVisible();
    expect(screen.getByText('2 / 3')).toBeInTheDocument();

    // Paging still works; back on page 2 it is said at once (pdf.js never asks for the piece again).
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'PDF page 1' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('This page could not be shown.');

    // Retry: a new document, in which page 2 arrives and is drawn.
    const { doc: second } = fakeDocument(3);
    pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(second), destroy: vi.fn() });
    const opens = opener.openPdf.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(opener.openPdf).toHaveBeenCalledTimes(opens + 1);
    await waitFor(() => expect(second.getPage).toHaveBeenLastCalledWith(2));
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'PDF page 2' })).toBeVisible();
    expect(firstDoc.destroy).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'PDF page 2' })).toBeVisible());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('takes a piece given up while the document opens for a failure to load it: no Loading for ever', async () => {
    pdfjs.getDocument.mockReturnValue({ promise: new Promise<never>(() => {}), destroy: vi.fn() });
    render(<PdfViewer url="/download_pdf_by_id/3" id={3} />);
    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    act(() => opener.openPdf.mock.lastCall![1]!.onPieceFailed!(new TypeError('network error')));
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('frees a document Retry could not open (its pdf.js worker with it)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, getPage } = await openViewer();
    const fetched = getPage.getMockImplementation()!;
    getPage.mockImplementation(async (n) => {
      if (n === 2) throw new Error('Bad page');
      return fetched(n);
    });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const retry = await screen.findByRole('button', { name: 'Retry' });
    const destroy = vi.fn();
    pdfjs.getDocument.mockImplementationOnce(() => ({ promise: Promise.reject(new Error('reset')), destroy }));
    await user.click(retry);
    const reopen = opener.openPdf.mock.results.at(-1)!.value;
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenLastCalledWith('Could not load the PDF page', expect.any(Error));
    expect(reopen.cancel).toHaveBeenCalled();
    await waitFor(() => expect(destroy).toHaveBeenCalled());
  });

  it('says a page that could not be drawn could not be shown; Retry draws it anew', async () => {
    applyStylesheet('pdf.css');
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, renderPage, getPage, canvas } = await openViewer();
    renderPage.mockImplementationOnce(() => ({ promise: Promise.reject(new Error('Bad operator')), cancel: vi.fn() }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This page could not be shown.');
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(canvas).not.toBeVisible();
    expect(consoleError).toHaveBeenCalledWith('Could not draw the PDF page', expect.any(Error));
    // pdf.js's failed operator list is dropped, so that the next drawing starts afresh.
    const page2 = (await getPage.mock.results.at(-1)!.value) as { cleanup: ReturnType<typeof vi.fn> };
    expect(page2.cleanup).toHaveBeenCalled();

    const opens = opener.openPdf.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(3));
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'PDF page 2' })).toBeVisible();
    expect(opener.openPdf).toHaveBeenCalledTimes(opens);
  });

  it('takes a cancelled drawing (paging on quickly, or by pdf.js itself) for no failure', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, renderPage } = await openViewer();
    const cancelled = Object.assign(new Error('Rendering cancelled'), { name: 'RenderingCancelledException' });
    // Page 2's drawing is cancelled by page 3's, as pdf.js's is; page 3's by pdf.js (a freed document).
    const page2Drawing = deferred<void>();
    renderPage
      .mockImplementationOnce(() => ({
        promise: page2Drawing.promise,
        cancel: vi.fn(() => page2Drawing.reject(cancelled)),
      }))
      .mockImplementationOnce(() => ({ promise: Promise.reject(cancelled), cancel: vi.fn() }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(2));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(renderPage).toHaveBeenCalledTimes(3));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Loading ...')).toBeInTheDocument();

    // The next drawing (here a zoom's) shows page 3.
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(screen.queryByText('Loading ...')).not.toBeInTheDocument());
    expect(screen.getByRole('img', { name: 'PDF page 3' })).toBeInTheDocument();
    expect(lastScale(renderPage)).toBe(1.1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('logs a document that fails to load, and shows nothing of it (the prototype page’s rule)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    pdfjs.getDocument.mockReturnValue({ promise: Promise.reject(new Error('reset')), destroy: vi.fn() });
    render(<PdfViewer url="/download_pdf_by_id/3" id={3} />, { wrapper: MemoryRouter });
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    expect(screen.queryByText('There is no PDF with this number.')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when there is no such PDF (404), with a way to the sample, and logs it', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const missing = Object.assign(new Error('status 404'), { status: 404 });
    pdfjs.getDocument.mockReturnValueOnce({ promise: Promise.reject(missing), destroy: vi.fn() });
    render(<PdfViewer url="/download_pdf_by_id/99" id={99} />, { wrapper: MemoryRouter });
    expect(await screen.findByText('There is no PDF with this number.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the sample PDF' })).toHaveAttribute('href', '/pdfviewer');
    expect(consoleError).toHaveBeenCalled();
  });
});

describe('PDF viewer: reading controls', () => {
  beforeEach(() => {
    vi.stubGlobal('devicePixelRatio', 2);
  });

  it('lays pdf.js text layer over the canvas at the page scale', async () => {
    await openViewer();
    const layer = document.querySelector('.pdf-page .textLayer');
    expect(layer).not.toBeNull();
    expect(pdfjs.TextLayer).toHaveBeenLastCalledWith(
      expect.objectContaining({ textContentSource: 'text stream', container: layer }),
    );
    expect((layer!.parentElement as HTMLElement).style.getPropertyValue('--total-scale-factor')).toBe('1');
  });

  it('goes to a typed page on Enter and refuses numbers outside the document with a message', async () => {
    const { user, getPage } = await openViewer();
    const field = screen.getByRole('textbox', { name: 'Go to page' });
    expect(field).toHaveValue('1');

    await user.clear(field);
    await user.type(field, '3{Enter}');
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    await waitFor(() => expect(getPage).toHaveBeenLastCalledWith(3));
    expect(screen.getByText('Page 3 of 3')).toHaveAttribute('role', 'status');

    for (const bad of ['9', '0', 'two', '']) {
      await user.clear(field);
      if (bad) await user.type(field, bad);
      await user.type(field, '{Enter}');
      expect(screen.getByRole('alert')).toHaveTextContent('Enter a page number from 1 to 3.');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription('Enter a page number from 1 to 3.');
      expect(screen.getByText('3 / 3')).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(field).toHaveValue('2');
  });

  it('pages with ← → PageUp PageDown Home End when the viewer has focus, and announces the page', async () => {
    const { user } = await openViewer();
    const viewer = screen.getByRole('region', { name: 'PDF document' });
    expect(viewer).toHaveAttribute('tabindex', '0');
    viewer.focus();

    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toHaveAttribute('role', 'status');
    await user.keyboard('{PageDown}');
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{Home}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    await user.keyboard('{PageUp}');
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();

    // In the page number field the keys edit the number.
    const field = screen.getByRole('textbox', { name: 'Go to page' });
    await user.click(field);
    await user.keyboard('{End}{ArrowLeft}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();
  });

  it('← → scroll a page wider than its box instead of paging; PageUp PageDown still page', async () => {
    const { user } = await openViewer();
    const viewer = screen.getByRole('region', { name: 'PDF document' });
    const wrap = document.querySelector<HTMLElement>('.pdf-canvas-wrap')!;
    // jsdom lays nothing out: the box shows 500 px of a page 1224 px wide (zoomed in).
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this === wrap ? 500 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this === wrap ? 1224 : 0;
    });
    viewer.focus();

    // From the region the browser would scroll the document, not the box: the viewer scrolls the box.
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();
    expect(wrap.scrollLeft).toBe(80);
    await user.keyboard('{ArrowLeft}');
    expect(wrap.scrollLeft).toBe(40);
    await user.keyboard('{PageDown}');
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    await user.keyboard('{PageUp}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();
    // With focus in the box the browser scrolls it: the key is left alone.
    expect(fireEvent.keyDown(wrap, { key: 'ArrowRight' })).toBe(true);
    expect(wrap.scrollLeft).toBe(40);
    expect(screen.getByText('1 / 3')).toBeInTheDocument();

    // Once the page fits the box again, ← → page.
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this === wrap ? 500 : 0;
    });
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
  });

  it('keeps the canvas within 2^24 device pixels (iOS Safari’s limit) at the same CSS size: 200 % on a 3× screen', async () => {
    vi.stubGlobal('devicePixelRatio', 3);
    const { user, renderPage, canvas } = await openViewer();
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    for (let step = 0; step < 5; step++) await user.click(zoomIn); // 110, 125, 150, 175, 200 %
    await waitFor(() => expect(lastScale(renderPage)).toBe(2));
    // 1224.8 × 1584 CSS pixels × 3² would be 17.5 M device pixels.
    expect(canvas.width * canvas.height).toBeLessThanOrEqual(2 ** 24);
    expect(canvas.width * canvas.height).toBeGreaterThan(2 ** 24 * 0.999);
    expect(canvas.style.width).toBe('1224px');
    expect(canvas.style.height).toBe('1584px');
    const outputScale = Math.sqrt(2 ** 24 / (1224.8 * 1584));
    expect(canvas.width).toBe(Math.floor(1224.8 * outputScale));
    expect(renderPage.mock.lastCall?.[0]).toEqual(
      expect.objectContaining({ transform: [outputScale, 0, 0, outputScale, 0, 0] }),
    );
  });

  it('zooms in, out, to actual size and redraws crisp at each scale', async () => {
    const { user, renderPage, canvas } = await openViewer();
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actual size' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(lastScale(renderPage)).toBe(1.1));
    expect(screen.getByText('110%')).toBeInTheDocument();
    expect(canvas.style.width).toBe('673px'); // floor(612.4 × 1.1)
    expect(canvas.width).toBe(1347); // floor(612.4 × 1.1 × 2): device pixels, not CSS-scaled
    expect(screen.getByRole('button', { name: 'Actual size' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await user.click(screen.getByRole('button', { name: 'Zoom out' }));
    await waitFor(() => expect(lastScale(renderPage)).toBe(0.9));
    expect(screen.getByText('90%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Actual size' }));
    await waitFor(() => expect(lastScale(renderPage)).toBe(1));
    expect(canvas.style.width).toBe('612px');
  });

  it('starts at fit width when the box is narrower than the page, and says so', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('pdf-viewer') ? 306 : 0;
    });
    const { doc, render: renderPage } = fakeDocument(3);
    pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(doc), destroy: vi.fn() });
    render(<PdfViewer url="/download_pdf_by_id/3" id={3} />);
    await waitFor(() => expect(renderPage).toHaveBeenCalled());
    // The box is measured before the first drawing: one drawing, at fit width.
    expect(renderPage).toHaveBeenCalledTimes(1);
    expect(lastScale(renderPage)).toBeCloseTo(306 / 612.4, 5);
    expect(screen.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('50%')).toBeInTheDocument();
    expect((screen.getByRole('img') as HTMLCanvasElement).style.width).toBe('306px');
  });

  it('never lets a late drawing of an earlier zoom or page stand over a newer one', async () => {
    const { doc, render: renderPage } = fakeDocument(3);
    const tasks: { done: ReturnType<typeof deferred<void>>; cancel: ReturnType<typeof vi.fn> }[] = [];
    renderPage.mockImplementation(() => {
      const task = { done: deferred<void>(), cancel: vi.fn() };
      tasks.push(task);
      return { promise: task.done.promise, cancel: task.cancel };
    });
    pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(doc), destroy: vi.fn() });
    const user = userEvent.setup();
    render(<PdfViewer url="/download_pdf_by_id/3" id={3} />);
    await waitFor(() => expect(tasks).toHaveLength(1));
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    await user.click(zoomIn);
    await user.click(zoomIn);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(tasks).toHaveLength(4));
    const canvas = screen.getByRole('img') as HTMLCanvasElement;
    expect(tasks.slice(0, 3).every((task) => task.cancel.mock.calls.length === 1)).toBe(true);
    expect(tasks[3]!.cancel).not.toHaveBeenCalled();
    expect(lastScale(renderPage)).toBe(1.25);

    tasks[3]!.done.resolve();
    await waitFor(() => expect(canvas.dataset.renderedScale).toBe('1.25'));
    // The older drawings finish late (as if their cancellation came too late): nothing changes.
    tasks[2]!.done.resolve();
    tasks[1]!.done.resolve();
    tasks[0]!.done.resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(canvas.dataset.renderedScale).toBe('1.25');
    expect(canvas.style.width).toBe('765px'); // floor(612.4 × 1.25)
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
  });

  it('downloads and prints PDF 3 with the download and print pages’ code', async () => {
    const fetchMock = mockFetch(
      () =>
        new Response('%PDF-1.4 fake', {
          status: 200,
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="news.pdf"' },
        }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf-3'), revokeObjectURL: vi.fn() }));
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    const { user } = await openViewer();

    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(fetchMock.mock.calls[0]?.[0]).toBe(downloadPdfPath(3));
    expect(clicks[0]?.download).toBe('news.pdf');

    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(fetchMock.mock.calls[1]?.[0]).toBe(downloadPdfPath(3));
    expect(fetchMock.mock.calls[1]?.[1]?.credentials).toBe('include');
    await waitFor(() => expect(document.querySelector('iframe')?.getAttribute('src')).toBe('blob:pdf-3'));
    expect(screen.getByRole('button', { name: 'Wait...' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('searches every page, goes to the first hit, marks it, and steps through the hits', async () => {
    const { doc, getPage } = fakeDocument(3, [['Autumn news'], ['Volunteers ', 'wanted: more volunteers'], ['Thanks']]);
    // jsdom lays nothing out: the scroll that brings the current hit into view is recorded.
    const scrolled: string[] = [];
    Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: HTMLElement) {
        scrolled.push(`${this.textContent} ${this.className}`);
      },
    });
    onTestFinished(() => void delete (HTMLElement.prototype as Partial<HTMLElement>).scrollIntoView);
    pdfjs.getDocument.mockReturnValue({ promise: Promise.resolve(doc), destroy: vi.fn() });
    const user = userEvent.setup();
    render(<PdfViewer url="/download_pdf_by_id/3" id={3} />);
    const box = await screen.findByRole('searchbox', { name: 'Search' });
    const search = screen.getByRole('search', { name: 'Search the document' });
    const status = search.querySelector('[aria-live="polite"]')!;

    await user.type(box, 'VOLUNTEERS{Enter}');
    await waitFor(() => expect(status).toHaveTextContent('Hit 1 of 2'));
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    await waitFor(() => expect(document.querySelectorAll('.textLayer mark.highlight')).toHaveLength(2));
    const marks = () => [...document.querySelectorAll('.textLayer mark')].map((m) => [m.textContent, m.className]);
    expect(marks()).toEqual([
      ['Volunteers', 'highlight selected'],
      ['volunteers', 'highlight'],
    ]);
    expect(scrolled).toEqual(['Volunteers highlight selected']);
    // The span keeps its whole text around the mark.
    expect(document.querySelectorAll('.textLayer span')[1]).toHaveTextContent('wanted: more volunteers');

    await user.type(box, '{Enter}');
    expect(status).toHaveTextContent('Hit 2 of 2');
    expect(scrolled.at(-1)).toBe('volunteers highlight selected');
    expect(marks()).toEqual([
      ['Volunteers', 'highlight'],
      ['volunteers', 'highlight selected'],
    ]);
    await user.click(screen.getByRole('button', { name: 'Previous match' }));
    expect(status).toHaveTextContent('Hit 1 of 2');

    await user.clear(box);
    await user.type(box, 'zeppelin');
    await user.click(screen.getByRole('button', { name: 'Next match' }));
    await waitFor(() => expect(status).toHaveTextContent('No matches'));
    expect(document.querySelectorAll('.textLayer mark')).toHaveLength(0);
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    // Page 3 (never shown) was read once, for the first search; the second used the strings kept.
    expect(getPage.mock.calls.filter(([n]) => n === 3)).toHaveLength(1);
  });
});
