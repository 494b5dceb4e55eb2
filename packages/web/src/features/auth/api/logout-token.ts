import { apiPaths } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { clearAuth, getRefreshToken } from '@/lib/auth';

/**
 * Token-style logout: POST with `Authorization: Token <refresh token>` and an empty body. This browser
 * forgets the session at once, not after the answer (docs/web-app.md, "The session in the browser"):
 * the call has read the token when it starts, and `keepalive` lets it finish after the page is gone.
 * A failure is only logged.
 */
export function logoutToken(): void {
  if (getRefreshToken()) {
    apiFetch(apiPaths.logout, { method: 'POST', auth: 'token', refreshOnExpiry: false, keepalive: true }).catch(
      (error: unknown) => console.error('Token logout failed', error),
    );
  }
  clearAuth();
}
