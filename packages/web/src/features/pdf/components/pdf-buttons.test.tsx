import { downloadPdfPath } from '@hello/contract';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch } from '../../../../test/helpers';
import { DownloadPdfButton } from './download-pdf-button';
import { PrintPdfButton } from './print-pdf-button';

const pdfResponse = (disposition: string) =>
  new Response('%PDF-1.4 fake', {
    status: 200,
    headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': disposition },
  });

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
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    render(<PrintPdfButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Click to print' }));
    expect(screen.getByRole('button', { name: 'Wait...' })).toHaveAttribute('aria-disabled', 'true');
    expect(fetchMock.mock.calls[0]?.[0]).toBe(downloadPdfPath(3));
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('include');

    answer.resolve(pdfResponse('attachment; filename="demo-3.pdf"'));
    const frame = document.querySelector('iframe')!;
    await waitFor(() => expect(frame.getAttribute('src')).toBe('blob:http://localhost/pdf-1'));
    const print = vi.fn();
    // Focusing the frame's window puts focus on the frame, as in a browser.
    Object.defineProperty(frame, 'contentWindow', { value: { print, focus: () => frame.focus() } });

    vi.useFakeTimers();
    try {
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
    } finally {
      vi.useRealTimers();
    }
  });
});
