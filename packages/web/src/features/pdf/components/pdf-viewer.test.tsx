import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../../../test/helpers';

// pdf.js needs a real canvas and worker; here it is replaced by a document of 3 pages so the
// viewer's own behaviour (indicator, buttons, canvas sizing) is what gets tested.
const pdfjs = vi.hoisted(() => ({ getDocument: vi.fn(), GlobalWorkerOptions: { workerSrc: '' } }));
vi.mock('pdfjs-dist', () => pdfjs);
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/assets/pdf.worker.min-hash.mjs' }));

import { PdfViewer } from './pdf-viewer';

function fakeDocument(numPages: number) {
  const render = vi.fn(() => ({ promise: Promise.resolve(), cancel: vi.fn() }));
  const getPage = vi.fn(async () => ({
    getViewport: ({ scale }: { scale: number }) => ({ width: 612.4 * scale, height: 792 * scale }),
    render,
  }));
  return { doc: { numPages, getPage }, render, getPage };
}

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
    expect(pdfjs.getDocument).toHaveBeenCalledWith({ url: '/download_pdf_by_id/3', isEvalSupported: false });
    expect(pdfjs.GlobalWorkerOptions.workerSrc).toBe('/assets/pdf.worker.min-hash.mjs');
    loaded.resolve(doc);

    expect(await screen.findByText('1 / 3')).toBeInTheDocument();
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
    const prev = screen.getByRole('button', { name: 'Prev' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(prev).toBeDisabled();
    expect(next).toBeEnabled();

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
    expect(next).toBeDisabled();
    expect(prev).toBeEnabled();
    await waitFor(() => expect(getPage).toHaveBeenLastCalledWith(3));
  });

  it('logs a document that fails to load', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    pdfjs.getDocument.mockReturnValue({ promise: Promise.reject(new Error('404')), destroy: vi.fn() });
    render(<PdfViewer url="/download_pdf_by_id/404" />);
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(screen.queryByText('Loading ...')).not.toBeInTheDocument();
  });
});
