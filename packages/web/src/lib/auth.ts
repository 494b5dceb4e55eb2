import { useSyncExternalStore } from 'react';
import { TOKEN_STORAGE_KEY } from '@hello/contract';

/**
 * The session as docs/web-app.md, "The session in the browser", keeps it: the refresh token in
 * localStorage (so it survives a reload), the access token and the user's e-mail only in memory (so
 * they never outlive the tab).
 *
 * The refresh token is one value under several names on the wire (docs/api.md, "Authentication"):
 * `refresh` in the token calls, the JWT logout and the answers of a password change and a profile
 * save; `key` in the registration's answer; the value of `Authorization: Token …`; and `token`, its
 * key in localStorage (TOKEN_STORAGE_KEY). This code calls it the refresh token everywhere.
 */
export interface AuthState {
  access: string | null;
  email: string | null;
  /** Whether a refresh token is stored; mirrored here so the UI re-renders when it changes. */
  hasRefreshToken: boolean;
}

const listeners = new Set<() => void>();
/**
 * Moves whenever whose session this is, or its e-mail, may have changed (a token stored or forgotten
 * here or in another tab, the e-mail forgotten after a confirmed change): an answer about the user
 * asked for before it moved may be about someone, or something, else (lib/current-user).
 */
let identity = 0;
let state: AuthState = { access: null, email: null, hasRefreshToken: readRefreshToken() !== null };

function readRefreshToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, policies): behave as logged out
  }
}

function update(next: Partial<AuthState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** The stored refresh token, or null when there is none (logged out). */
export function getRefreshToken(): string | null {
  return readRefreshToken();
}

export function getAccessToken(): string | null {
  return state.access;
}

/** Keeps a refresh token (login, registration key, password change, profile save). */
export function storeRefreshToken(token: string): void {
  try {
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
  } catch (error) {
    console.error('Could not store the refresh token', error);
  }
  identity++;
  update({ hasRefreshToken: true });
}

export function setAccessToken(access: string | null): void {
  update({ access });
}

/** Keeps the signed-in user's e-mail; null forgets it (it has changed: lib/current-user asks again). */
export function setUserEmail(email: string | null): void {
  if (email === null) identity++;
  update({ email });
}

export function identityVersion(): number {
  return identity;
}

/** Forgets everything: the stored refresh token, the access token and the e-mail. */
export function clearAuth(): void {
  try {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // nothing stored that we could remove
  }
  identity++;
  update({ access: null, email: null, hasRefreshToken: false });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getAuthState(): AuthState {
  return state;
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribe, getAuthState);
}

// Another tab logging in or out changes the shared stored refresh token; follow it here too. The new token
// may be another account's, so the e-mail is forgotten as well (lib/current-user asks again).
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    identity++;
    update({ hasRefreshToken: readRefreshToken() !== null, access: null, email: null });
  });
}

/**
 * Adopts a refresh token the server handed back (password change, profile save). The access token
 * in memory may belong to the session that token replaced, so it is dropped; the next
 * authenticated call exchanges the new refresh token first.
 */
export function adoptRefreshToken(refresh: string): void {
  storeRefreshToken(refresh);
  setAccessToken(null);
}
