import { getDocument, PDFDataRangeTransport, type PDFDocumentLoadingTask } from 'pdfjs-dist';

/** Bytes asked for at a time: the first page of a large PDF needs a few of these, not the file. */
export const RANGE_CHUNK_BYTES = 64 * 1024;

/** Waits before asking again for a piece that failed; one try more than there are delays. */
export const RETRY_DELAYS_MS = [250, 1000, 3000];

/** Thrown when the server answers a range request with anything but its 206. */
class PdfRangeError extends Error {
  override name = 'PdfRangeError';
  constructor(
    message: string,
    /** The answer's HTTP status; undefined when the answer was one but not the expected kind. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** True when the server has no PDF at the URL opened (404), rather than failing to send it. */
export const isPdfMissing = (error: unknown): boolean => error instanceof PdfRangeError && error.status === 404;

/** `bytes 0-65535/5242880` → 5242880; null when the length is not given. */
export function totalFromContentRange(header: string | null): number | null {
  const match = /^bytes \d+-\d+\/(\d+)$/.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

async function fetchRange(url: string, first: number, last: number, signal: AbortSignal) {
  const response = await fetch(url, { headers: { Range: `bytes=${first}-${last}` }, signal });
  if (response.status !== 206 && !(response.status === 200 && first === 0)) {
    throw new PdfRangeError(`GET ${url} bytes ${first}-${last}: status ${response.status}`, response.status);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status === 200) return { bytes, total: bytes.length };
  const total = totalFromContentRange(response.headers.get('Content-Range'));
  if (total === null) throw new PdfRangeError(`GET ${url}: no length in Content-Range`);
  return { bytes, total };
}

export interface OpenPdfOptions {
  /** Told of a piece given up after its retries, which pdf.js would wait for for ever. */
  onPieceFailed?: (error: unknown) => void;
}

export interface OpenedPdf {
  task: Promise<PDFDocumentLoadingTask>;
  /** Stops the fetches in flight and the loading. */
  cancel(): void;
}

/**
 * Opens the PDF at `url` for viewing without downloading it whole first: its first 64 KiB, then
 * only the pieces pdf.js needs for what is drawn (no streaming, no fetching ahead). A server that
 * answers the first request with the whole file (no ranges) simply hands pdf.js the whole file.
 * isEvalSupported: false — pdf.js would otherwise compile fonts with new Function(), which our
 * Content-Security-Policy forbids.
 */
export function openPdf(url: string, { onPieceFailed }: OpenPdfOptions = {}): OpenedPdf {
  const controller = new AbortController();
  const task = fetchRange(url, 0, RANGE_CHUNK_BYTES - 1, controller.signal).then(({ bytes, total }) => {
    const common = { isEvalSupported: false, rangeChunkSize: RANGE_CHUNK_BYTES } as const;
    if (total <= bytes.length) return getDocument({ ...common, data: bytes });
    // The rest in pieces, as pdf.js asks for them, with our own fetch (so every request is ours,
    // on our origin), all cancelled when pdf.js aborts.
    const range = new PDFDataRangeTransport(total, bytes);
    // pdf.js has no way to hear that a piece failed: it would wait for it for ever, so a piece that
    // fails (a dropped connection) is asked for again, a little later each time, before giving up
    // and telling the caller (pdf.js never asks for that piece again).
    const fetchPiece = (begin: number, end: number, attempt: number): void => {
      fetchRange(url, begin, end - 1, controller.signal).then(
        ({ bytes: piece }) => range.onDataRange(begin, piece),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const delay = RETRY_DELAYS_MS[attempt];
          if (delay === undefined) {
            console.error('Could not fetch part of the PDF', error);
            return onPieceFailed?.(error);
          }
          setTimeout(() => {
            if (!controller.signal.aborted) fetchPiece(begin, end, attempt + 1);
          }, delay);
        },
      );
    };
    range.requestDataRange = (begin: number, end: number) => fetchPiece(begin, end, 0);
    range.abort = () => controller.abort();
    return getDocument({ ...common, range, disableAutoFetch: true, disableStream: true });
  });
  return { task, cancel: () => controller.abort() };
}
