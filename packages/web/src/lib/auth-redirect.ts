import { appRoutes } from '@hello/contract';
import { PAGES_WITHOUT_AUTH_REDIRECT } from '@/config/constants';

/** Router state carried to /login so the user can be sent back afterwards. */
export interface LoginState {
  from?: string;
}

export type LoginNavigator = (to: string, state: LoginState) => void;

// Until the router registers itself (and in plain unit tests) fall back to a full page load.
let navigator: LoginNavigator = (to) => window.location.assign(to);

/** The router registers how to navigate; lib code cannot use hooks. Returns an unregister. */
export function setLoginNavigator(next: LoginNavigator): () => void {
  const previous = navigator;
  navigator = next;
  return () => {
    navigator = previous;
  };
}

/** `/login?next=…`: the query keeps the previous location across a reload, router state does not. */
export function loginPath(from: string | null): string {
  return from ? `${appRoutes.login}?next=${encodeURIComponent(from)}` : appRoutes.login;
}

/**
 * Only same-origin paths may be a post-login target; anything else could be an open redirect. So one
 * leading slash, and no backslash, space or control character anywhere: URL parsing reads a
 * backslash as a slash and drops tabs and newlines (`/\t/evil.example` is `//evil.example`).
 */
export function safeNextPath(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\/(?!\/)[^\0- \\]*$/.test(value)) return null;
  if (value === appRoutes.login || value.startsWith(`${appRoutes.login}?`)) return null;
  return value;
}

/** Sends the user to /login after the session was lost, passing the current location along. */
export function redirectToLogin(): void {
  const { pathname, search, hash } = window.location;
  if (PAGES_WITHOUT_AUTH_REDIRECT.includes(pathname)) return;
  const from = safeNextPath(pathname + search + hash);
  navigator(loginPath(from), from ? { from } : {});
}
