import { describe, expect, it, vi } from 'vitest';
import { headerOf, mockFetch } from '../../../../test/helpers';

const pdfjs = vi.hoisted(() => {
  class PDFDataRangeTransport {
    constructor(
      public length: number,
      public initialData: Uint8Array,
    ) {}
    onDataRange = vi.fn();
    requestDataRange(_begin: number, _end: number) {}
    abort() {}
  }
  return { getDocument: vi.fn((source: unknown) => ({ source })), PDFDataRangeTransport };
});
vi.mock('pdfjs-dist', () => pdfjs);

import { isPdfMissing, openPdf, RANGE_CHUNK_BYTES, RETRY_DELAYS_MS, totalFromContentRange } from './open-pdf';

const SIZE = 5 * 1024 * 1024;

/** A server with a SIZE-byte PDF that answers one Range with its 206, as /download_pdf_by_id does. */
function rangeServer() {
  return mockFetch((_url, init) => {
    const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(headerOf(init, 'Range') ?? '')!.map(Number);
    return new Response(new Uint8Array(last! - first! + 1), {
      status: 206,
      headers: { 'Content-Range': `bytes ${first}-${last}/${SIZE}` },
    });
  });
}

describe('opening a PDF by ranges', () => {
  it('reads the length from Content-Range', () => {
    expect(totalFromContentRange('bytes 0-65535/5242880')).toBe(5242880);
    expect(totalFromContentRange('bytes 0-65535/*')).toBeNull();
    expect(totalFromContentRange(null)).toBeNull();
  });

  it('fetches the first 64 KiB, then only the ranges pdf.js asks for, never the whole file', async () => {
    const fetchMock = rangeServer();
    const { task } = openPdf('/download_pdf_by_id/100');
    const { source } = (await task) as unknown as { source: Record<string, unknown> };
    expect(headerOf(fetchMock.mock.calls[0]![1], 'Range')).toBe(`bytes=0-${RANGE_CHUNK_BYTES - 1}`);
    expect(source).toMatchObject({ disableAutoFetch: true, disableStream: true, rangeChunkSize: RANGE_CHUNK_BYTES });
    expect(source).toMatchObject({ isEvalSupported: false });
    expect(source.url).toBeUndefined();
    const range = source.range as InstanceType<typeof pdfjs.PDFDataRangeTransport>;
    expect(range.length).toBe(SIZE);
    expect(range.initialData).toHaveLength(RANGE_CHUNK_BYTES);

    range.requestDataRange(5177344, SIZE);
    await vi.waitFor(() => expect(range.onDataRange).toHaveBeenCalledTimes(1));
    expect(headerOf(fetchMock.mock.calls[1]![1], 'Range')).toBe(`bytes=5177344-${SIZE - 1}`);
    expect(range.onDataRange.mock.calls[0]![0]).toBe(5177344);
    expect(range.onDataRange.mock.calls[0]![1]).toHaveLength(SIZE - 5177344);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('hands pdf.js the bytes when the whole file came in the first answer', async () => {
    mockFetch(() => new Response(new Uint8Array(1000), { status: 200 }));
    const { source } = (await openPdf('/download_pdf_by_id/1').task) as unknown as { source: Record<string, unknown> };
    expect(source.data).toHaveLength(1000);
    expect(source.range).toBeUndefined();
  });

  it('fails on an answer that is neither the range nor the whole file, telling a missing PDF apart', async () => {
    mockFetch(() => new Response('nope', { status: 404 }));
    const missing = await openPdf('/download_pdf_by_id/9').task.catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(Error);
    expect((missing as Error).message).toMatch(/status 404/);
    expect(isPdfMissing(missing)).toBe(true);
    mockFetch(() => new Response('oops', { status: 500 }));
    const failed = await openPdf('/download_pdf_by_id/9').task.catch((error: unknown) => error);
    expect(isPdfMissing(failed)).toBe(false);
    expect(isPdfMissing(new Error('status 404'))).toBe(false);
  });
});

describe('a piece of the PDF that fails', () => {
  it('is asked for again, a little later each time, until it comes', async () => {
    vi.useFakeTimers();
    try {
      let failuresLeft = 2;
      const fetchMock = mockFetch((_url, init) => {
        const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(headerOf(init, 'Range') ?? '')!.map(Number);
        if (first! > 0 && failuresLeft-- > 0) return Promise.reject(new TypeError('network error'));
        return new Response(new Uint8Array(last! - first! + 1), {
          status: 206,
          headers: { 'Content-Range': `bytes ${first}-${last}/${SIZE}` },
        });
      });
      const { task } = openPdf('/download_pdf_by_id/100');
      const { source } = (await task) as unknown as { source: Record<string, unknown> };
      const range = source.range as InstanceType<typeof pdfjs.PDFDataRangeTransport>;
      range.requestDataRange(65536, 131072);
      await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]!);
      expect(range.onDataRange).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]!);
      expect(range.onDataRange).toHaveBeenCalledTimes(1);
      expect(range.onDataRange.mock.calls[0]![0]).toBe(65536);
      expect(fetchMock).toHaveBeenCalledTimes(4); // the first 64 KiB, two failures, the piece
    } finally {
      vi.useRealTimers();
    }
  });

  it('is given up after its last try, and never asked for once the viewer has gone', async () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const fetchMock = mockFetch((_url, init) => {
        const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(headerOf(init, 'Range') ?? '')!.map(Number);
        if (first! > 0) return Promise.reject(new TypeError('network error'));
        return new Response(new Uint8Array(last! - first! + 1), {
          status: 206,
          headers: { 'Content-Range': `bytes ${first}-${last}/${SIZE}` },
        });
      });
      const opened = openPdf('/download_pdf_by_id/100');
      const { source } = (await opened.task) as unknown as { source: Record<string, unknown> };
      const range = source.range as InstanceType<typeof pdfjs.PDFDataRangeTransport>;
      range.requestDataRange(65536, 131072);
      await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0));
      expect(fetchMock).toHaveBeenCalledTimes(1 + 1 + RETRY_DELAYS_MS.length);
      expect(error).toHaveBeenCalledWith('Could not fetch part of the PDF', expect.any(TypeError));

      range.requestDataRange(131072, 196608);
      await vi.advanceTimersByTimeAsync(0);
      opened.cancel();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(fetchMock).toHaveBeenCalledTimes(1 + 1 + RETRY_DELAYS_MS.length + 1);
    } finally {
      error.mockRestore();
      vi.useRealTimers();
    }
  });

  it('is reported once given up, as pdf.js would wait for it for ever', async () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      mockFetch((_url, init) => {
        const [, first, last] = /^bytes=(\d+)-(\d+)$/.exec(headerOf(init, 'Range') ?? '')!.map(Number);
        if (first! > 0) return Promise.reject(new TypeError('network error'));
        return new Response(new Uint8Array(last! - first! + 1), {
          status: 206,
          headers: { 'Content-Range': `bytes ${first}-${last}/${SIZE}` },
        });
      });
      const onPieceFailed = vi.fn();
      const { task } = openPdf('/download_pdf_by_id/100', { onPieceFailed });
      const { source } = (await task) as unknown as { source: Record<string, unknown> };
      const range = source.range as InstanceType<typeof pdfjs.PDFDataRangeTransport>;
      range.requestDataRange(65536, 131072);
      const retries = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
      await vi.advanceTimersByTimeAsync(retries - 1);
      expect(onPieceFailed).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(onPieceFailed).toHaveBeenCalledTimes(1);
      expect(onPieceFailed).toHaveBeenCalledWith(expect.any(TypeError));
      expect(range.onDataRange).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      vi.useRealTimers();
    }
  });
});
