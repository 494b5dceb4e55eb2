import type { ReactElement } from 'react';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi, type Mock } from 'vitest';
import { TOKEN_STORAGE_KEY } from '@hello/contract';
import { RouteNotice } from '../src/components/ui/route-notice';
import { clearAuth, setAccessToken, storeRefreshToken } from '../src/lib/auth';

/** Another tab stores `token` (or removes it: null); the browser tells this tab by a storage event. */
export function tokenFromOtherTab(token: string | null): void {
  act(() => {
    if (token === null) localStorage.removeItem(TOKEN_STORAGE_KEY);
    else localStorage.setItem(TOKEN_STORAGE_KEY, token);
    window.dispatchEvent(new StorageEvent('storage', { key: TOKEN_STORAGE_KEY }));
  });
}

/** A signed-in browser for a test: a stored refresh token and an access token, nothing else known. */
export function signedIn(refresh = 'r', access = 'acc'): void {
  clearAuth();
  storeRefreshToken(refresh);
  setAccessToken(access);
}

export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export type FetchHandler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces global fetch with a mock driven by `handler` (unit tests only; e2e uses the server). */
export function mockFetch(handler: FetchHandler): Mock<(url: string, init?: RequestInit) => Promise<Response>> {
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => handler(String(url), init));
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The calls a fetch mock received for one path. */
export function callsTo(fn: Mock, path: string): [string, RequestInit][] {
  return (fn.mock.calls as [string, RequestInit][]).filter(([url]) => url === path);
}

export function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.[name];
}

/** Shows where the router went, so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return (
    <>
      <output data-testid="location">{location.pathname + location.search}</output>
      <RouteNotice />
    </>
  );
}

export interface RouteOptions {
  /** The route pattern `ui` is mounted at. */
  path?: string;
  /** The URL the router starts at (defaults to `path`), e.g. '/resetnewpassword?token=abc'. */
  entry?: string;
  /** Router state of that first entry, e.g. `{ from: '/userprofile' }`. */
  state?: unknown;
}

/** Renders `ui` inside a router; every other path only shows its location, to assert navigation. */
export function renderRoute(ui: ReactElement, { path = '/', entry = path, state }: RouteOptions = {}) {
  const user = userEvent.setup();
  const url = new URL(entry, 'http://localhost');
  const result = render(
    <MemoryRouter initialEntries={[{ pathname: url.pathname, search: url.search, state }]}>
      <Routes>
        <Route path={path} element={ui} />
        <Route path="*" element={<LocationProbe />} />
      </Routes>
    </MemoryRouter>,
  );
  return { user, ...result };
}

/** Silences and records console.error for a test that expects failures to be logged. */
export function spyConsoleError() {
  return vi.spyOn(console, 'error').mockImplementation(() => {});
}
