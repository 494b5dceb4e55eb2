import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An injected answer's bytes, as far as decoding them needs. */
export interface EncodedAnswer {
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

/** The raw body, decompressed as its Content-Encoding says (a client that sent Accept-Encoding gets br or gzip). */
export function decodedBody(res: EncodedAnswer): Buffer {
  const encoding = String(res.headers['content-encoding'] ?? '');
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload);
  if (encoding === 'gzip') return gunzipSync(res.rawPayload);
  return res.rawPayload;
}
