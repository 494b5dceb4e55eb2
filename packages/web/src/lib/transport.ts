/** What the API client hands to a transport: a resolved request, auth header already set. */
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: BodyInit | null;
  credentials?: RequestCredentials;
  signal?: AbortSignal;
  /** Fraction 0..1 of the request body sent; only the XHR transport can report it. */
  onUploadProgress?: (fraction: number) => void;
  keepalive?: boolean;
}

/** Sends one request; fetch by default, XMLHttpRequest where upload progress matters. */
export type Transport = (url: string, request: TransportRequest) => Promise<Response>;

export function fetchTransport(url: string, request: TransportRequest): Promise<Response> {
  const init: RequestInit = { method: request.method, headers: request.headers };
  if (request.body != null) init.body = request.body;
  if (request.credentials) init.credentials = request.credentials;
  if (request.signal) init.signal = request.signal;
  if (request.keepalive) init.keepalive = true;
  return fetch(url, init);
}
