import { downloadPdfPath } from '@hello/contract';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { deferred, mockFetch } from '../../../../test/helpers';
import { DownloadPdfButton } from './download-pdf-button';
import { PrintPdfButton } from './print-pdf-button';

const pdfResponse = (disposition: string) =>
  new Response('%PDF-1.4 fake', {
    status: 200,
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': disposition },
  });

/** Fake timers that also move with real time (so waitFor goes on); the 1, 15 and 60 s on command. */
function fakeTimers() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  onTestFinished(() => void vi.useRealTimers());
}

/** The print frame, once it has been given the PDF; its window prints with `print`. */
async function loadingFrame(print = vi.fn()) {
  const frame = document.querySelector('iframe')!;
  await waitFor(() => expect(frame.getAttribute('src')).toBe('blob:http://localhost/pdf-1'));
  Object.defineProperty(frame, 'contentWindow', { value: { print, focus: () => frame.focus() } });
  return frame;
}

describe('PDF buttons', () => {
  let createObjectURL: ReturnType<typeof vi.fn>;
  let revokeObjectURL: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    createObjectURL = vi.fn(() => 'blob:http://localhost/pdf-1');
    revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
  });

  it('downloads PDF 1 under the name from Content-Disposition', async () => {
    const fetchMock = mockFetch(() => pdfResponse(`attachment; filename="x.pdf"; filename*=UTF-8''Demo%20%C3%BC.pdf`));
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    render(<DownloadPdfButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Saved as Demo ü.pdf')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe(downloadPdfPath(1));
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.download).toBe('Demo ü.pdf');
    expect(clicks[0]?.href).toBe('blob:http://localhost/pdf-1');
  });

  it('prints PDF 3 fetched with credentials in a hidden frame, reads Wait... meanwhile, keeps focus on the button, revokes the URL after 1 s', async () => {
    fakeTimers();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    render(<PrintPdfButton />);
    await user.click(screen.getByRole('button', { name: 'Click to print' }));
    expect(screen.getByRole('button', { name: 'Wait...' })).toHaveAttribute('aria-disabled', 'true');
    expect(fetchMock.mock.calls[0]?.[0]).toBe(downloadPdfPath(3));
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('include');

    answer.resolve(pdfResponse('attachment; filename="demo-3.pdf"'));
    const print = vi.fn();
    // Focusing the frame's window puts focus on the frame, as in a browser.
    const frame = await loadingFrame(print);
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(print).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Click to print' })).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('button', { name: 'Click to print' })).toHaveFocus(); // not the hidden frame
    vi.advanceTimersByTime(999);
    expect(revokeObjectURL).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/pdf-1');
  });

  it('revokes the URL of the PDF printed or loading when the button goes away before its time', async () => {
    fakeTimers();
    mockFetch(() => pdfResponse('attachment; filename="demo-3.pdf"'));
    // Gone within the second after printing started.
    const printed = render(<PrintPdfButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    const frame = await loadingFrame();
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(revokeObjectURL).not.toHaveBeenCalled();
    printed.unmount();
    expect(revokeObjectURL).toHaveBeenCalledExactlyOnceWith('blob:http://localhost/pdf-1');
    vi.advanceTimersByTime(60_000);
    expect(revokeObjectURL).toHaveBeenCalledTimes(1);

    // Gone while its frame was loading.
    revokeObjectURL.mockClear();
    const loading = render(<PrintPdfButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    await loadingFrame();
    loading.unmount();
    expect(revokeObjectURL).toHaveBeenCalledExactlyOnceWith('blob:http://localhost/pdf-1');
  });

  it('makes no URL for a PDF that arrives after the button has gone', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    const view = render(<PrintPdfButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    view.unmount();
    answer.resolve(pdfResponse('attachment; filename="demo-3.pdf"'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('opens the PDF in a new tab where frames show no PDF (pdfViewerEnabled false), and revokes its URL after a minute', async () => {
    fakeTimers();
    Object.defineProperty(navigator, 'pdfViewerEnabled', { configurable: true, value: false });
    onTestFinished(() => void delete (navigator as { pdfViewerEnabled?: boolean }).pdfViewerEnabled);
    const tab = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const answer = deferred<Response>();
    mockFetch(() => answer.promise);
    render(<PrintPdfButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    // Opened in the click itself, before the PDF arrives: a popup blocker lets a click open a tab.
    expect(open).toHaveBeenCalledExactlyOnceWith('', '_blank');
    answer.resolve(pdfResponse('attachment; filename="demo-3.pdf"'));
    await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/pdf-1'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(tab.close).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Click to print' })).not.toHaveAttribute('aria-disabled');
    expect(document.querySelector('iframe')).not.toHaveAttribute('src');
    // Whole seconds: the fake clock also moves with real time while waitFor waits.
    vi.advanceTimersByTime(59_000);
    expect(revokeObjectURL).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/pdf-1');
  });

  it('gives up after 15 s when the frame does not load the PDF: Click to print again, the error logged', async () => {
    fakeTimers();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch(() => pdfResponse('attachment; filename="demo-3.pdf"'));
    render(<PrintPdfButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    const print = vi.fn();
    const frame = await loadingFrame(print);
    act(() => vi.advanceTimersByTime(14_000));
    expect(screen.getByRole('button', { name: 'Wait...' })).toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('button', { name: 'Click to print' })).not.toHaveAttribute('aria-disabled');
    expect(consoleError).toHaveBeenCalledWith('Could not print the PDF', expect.any(Error));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/pdf-1');
    // A load after giving up prints nothing.
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(print).not.toHaveBeenCalled();
  });
});
