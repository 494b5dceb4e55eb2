import { apiPaths, errorCodes, type AccessToken } from '@hello/contract';
import { clearAuth, getAccessToken, getRefreshToken, setAccessToken } from './auth';
import { redirectToLogin } from './auth-redirect';
import { ApiError, AuthLostError } from './errors';
import { fetchTransport, type Transport, type TransportRequest } from './transport';

/**
 * The one API client. Each call says which credential it needs (docs/api.md, "Authentication"):
 * - `bearer`: `Authorization: Bearer <access>` (news list, change password, profile);
 * - `token`: `Authorization: Token <refresh token>` (news create, token logout);
 * - `none`: anonymous.
 */
export type AuthScheme = 'none' | 'bearer' | 'token';

export interface RequestOptions {
  method?: string;
  auth?: AuthScheme;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as multipart/form-data (the browser sets the boundary). */
  form?: FormData;
  credentials?: RequestCredentials;
  signal?: AbortSignal;
  /** The Accept header; JSON unless the caller wants something else (a PDF). */
  accept?: string;
  /**
   * On a 401 `token_not_valid`, exchange the refresh token once and retry once (default true).
   * Logout turns it off: it ends the session anyway, so refreshing first would be pointless.
   */
  refreshOnExpiry?: boolean;
  /** How to send; `xhrTransport` (lib/xhr-transport) when upload progress is wanted. */
  transport?: Transport;
  /** Upload progress 0..1, for a transport that can measure it. */
  onUploadProgress?: (fraction: number) => void;
  /** Lets the call finish after the page is gone (a logout). */
  keepalive?: boolean;
}

let refreshing: Promise<string> | null = null;

/**
 * Exchanges the stored refresh token for an access token. Concurrent callers share one exchange
 * (single flight), so a burst of expired requests costs one POST to /token/refresh/.
 */
export function refreshAccessToken(): Promise<string> {
  refreshing ??= exchangeRefreshToken().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function exchangeRefreshToken(passes = 1): Promise<string> {
  const refresh = getRefreshToken();
  if (!refresh) loseSession();
  const response = await fetchTransport(apiPaths.tokenRefresh, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refresh }),
  });
  // The server refused the token: its session is over. A 5xx or 429 says nothing about the token,
  // so we keep it rather than log the user out because of a passing outage.
  const refused = response.status >= 400 && response.status < 500 && response.status !== 429;
  const stored = getRefreshToken();
  if (stored !== refresh && (response.ok || refused)) {
    // Another tab (or this one) logged in meanwhile: the answer is the old session's, so the stored
    // token is exchanged instead. Logged out there: nothing is kept here, and nothing more is done.
    if (stored === null) throw new AuthLostError();
    if (passes < 3) return exchangeRefreshToken(passes + 1);
    throw new Error('The session kept changing hands while its token was exchanged');
  }
  if (!response.ok) {
    if (refused) loseSession();
    throw new ApiError(response.status, await readBody(response));
  }
  const { access } = (await response.json()) as AccessToken;
  setAccessToken(access);
  return access;
}

/** Clears auth and sends the user to /login with the current location; never returns. */
function loseSession(): never {
  clearAuth();
  redirectToLogin();
  throw new AuthLostError();
}

/** On load with a stored refresh token: get an access token now, before any page needs one. */
export function restoreSession(): void {
  if (!getRefreshToken() || getAccessToken()) return;
  refreshAccessToken().catch((error: unknown) => {
    if (!(error instanceof AuthLostError)) console.error('Could not restore the session', error);
  });
}

async function authorization(auth: AuthScheme): Promise<string | null> {
  if (auth === 'bearer') return `Bearer ${getAccessToken() ?? (await refreshAccessToken())}`;
  if (auth === 'token') {
    const token = getRefreshToken();
    if (!token) loseSession();
    return `Token ${token}`;
  }
  return null;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  const auth = await authorization(options.auth ?? 'none');
  if (auth) headers.Authorization = auth;
  const request: TransportRequest = { method: options.method ?? 'GET', headers };
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    request.body = JSON.stringify(options.json);
  } else if (options.form) {
    request.body = options.form;
  }
  if (options.credentials) request.credentials = options.credentials;
  if (options.signal) request.signal = options.signal;
  if (options.onUploadProgress) request.onUploadProgress = options.onUploadProgress;
  if (options.keepalive) request.keepalive = true;
  return (options.transport ?? fetchTransport)(path, request);
}

async function isExpiredToken(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = await readBody(response.clone());
  return (body as { code?: unknown } | null)?.code === errorCodes.tokenNotValid;
}

/** Parsed JSON when the body is JSON, the text otherwise, null when empty. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Sends a request and returns the successful Response; throws ApiError for any other status.
 * An expired credential is refreshed once and the call retried once, never more.
 */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  let response = await send(path, options);
  const canRefresh = (options.auth ?? 'none') !== 'none' && options.refreshOnExpiry !== false;
  if (canRefresh && (await isExpiredToken(response))) {
    await refreshAccessToken();
    response = await send(path, options);
  }
  if (!response.ok) {
    // Seconds, as this server sends it; an HTTP-date or anything else is not read.
    const retryAfter = response.headers.get('Retry-After');
    const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    throw new ApiError(response.status, await readBody(response), seconds);
  }
  return response;
}

/** apiFetch, then the JSON body (undefined for an empty body). */
export async function apiJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiFetch(path, options);
  return (await readBody(response)) as T;
}
