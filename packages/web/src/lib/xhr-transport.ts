import type { TransportRequest } from './transport';

/** Statuses whose Response must be built without a body (the Response constructor insists). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * fetch() cannot report upload progress, XMLHttpRequest can. This transport gives the same
 * Response-shaped answer, so the client's auth and retry logic stays identical for both. It lives
 * in its own module so only the upload page's chunk carries it.
 */
export function xhrTransport(url: string, request: TransportRequest): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, url);
    xhr.responseType = 'blob';
    xhr.withCredentials = request.credentials === 'include';
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    const onProgress = request.onUploadProgress;
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      });
    }
    xhr.addEventListener('load', () => {
      const body = NULL_BODY.has(xhr.status) ? null : (xhr.response as Blob | null);
      try {
        resolve(
          new Response(body, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      } catch (error) {
        reject(error instanceof Error ? error : new TypeError('Invalid response'));
      }
    });
    // Same error types as fetch, so callers handle both transports alike.
    xhr.addEventListener('error', () => reject(new TypeError('Network request failed')));
    xhr.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    request.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(request.body as XMLHttpRequestBodyInit | null | undefined);
  });
}
