import { randomBytes } from 'node:crypto';
import { apiPaths, errorCodes, serverMessages } from '@hello/contract';
import { afterNextCall } from './next-call.js';
import type { TestApp } from './build.js';

type App = TestApp['app'];

/** A strong password no rule objects to. */
export const goodPassword = () => `Tall-${randomBytes(6).toString('hex')}-Trees`;

/** A request body with its content type, ready to spread into `inject()`. */
export interface EncodedBody {
  payload: string;
  headers: Record<string, string>;
}

/** A multipart/form-data body of plain fields, as a browser's FormData sends it. */
export function multipart(fields: Record<string, string>): EncodedBody {
  const boundary = `----hello${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** application/x-www-form-urlencoded, as an HTML form posts it. */
export function urlEncoded(fields: Record<string, string>): EncodedBody {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

/** POST with a JSON body (or none), from an optional client address and extra headers. */
export const post = (
  app: App,
  url: string,
  payload?: object,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) =>
  app.inject({
    method: 'POST',
    url,
    ...(payload ? { payload } : {}),
    headers: options.headers,
    remoteAddress: options.remoteAddress,
  });

export const login = (app: App, email: string, password: string, remoteAddress?: string) =>
  post(app, apiPaths.token, { email, password }, { remoteAddress });

export const register = (app: App, email: string, password: string, remoteAddress?: string) =>
  post(app, apiPaths.registration, { email, password1: password, password2: password }, { remoteAddress });

/** Status of exchanging the refresh token for an access token: 200 while its session lives. */
export async function refreshStatus(app: App, refresh: string): Promise<number> {
  return (await post(app, apiPaths.tokenRefresh, { refresh })).statusCode;
}

/** Status of a call authorized as `Token <refresh>` (the token logout): 200 while its session lives. */
export async function tokenStatus(app: App, refresh: string): Promise<number> {
  return (await post(app, apiPaths.logout, undefined, { headers: { authorization: `Token ${refresh}` } })).statusCode;
}

/** Both ways a refresh token is used, for "this session has ended" checks: [refresh, Token]. */
export async function sessionStatus(app: App, refresh: string): Promise<[number, number]> {
  const viaRefresh = await refreshStatus(app, refresh);
  // The Token probe is a logout, so it goes last: it would end a session that was still alive.
  return [viaRefresh, await tokenStatus(app, refresh)];
}

/** The 401 of a token whose session has ended. */
export const tokenNotValid = { detail: serverMessages.tokenNotValid, code: errorCodes.tokenNotValid };

/** Ends the session of the next request's token right after its check: a logout at that moment. */
export const endSessionOnceChecked = (app: App) =>
  afterNextCall(app.sessions, 'authenticate', (principal) => app.sessions.end(principal!.sessionId));
