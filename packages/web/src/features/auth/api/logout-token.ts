import { apiPaths } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { clearAuth, getRefreshToken } from '@/lib/auth';

/**
 * Token-style logout: POST with `Authorization: Token <refresh token>` and an empty body. Whatever
 * the server says, this browser forgets the session (docs/web-app.md, "The session in the browser");
 * a failure is only logged.
 */
export async function logoutToken(): Promise<void> {
  try {
    if (getRefreshToken()) {
      await apiFetch(apiPaths.logout, { method: 'POST', auth: 'token', refreshOnExpiry: false });
    }
  } catch (error) {
    console.error('Token logout failed', error);
  } finally {
    clearAuth();
  }
}
