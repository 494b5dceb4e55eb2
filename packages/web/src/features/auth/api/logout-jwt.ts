import { apiPaths, type JwtLogoutRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { clearAuth, getRefreshToken } from '@/lib/auth';

/**
 * JWT-style logout: POST {refresh} so the server ends that session. The stored refresh token is
 * removed whether or not the call succeeds (docs/web-app.md, "The session in the browser"); a
 * failure is only logged.
 */
export async function logoutJwt(): Promise<void> {
  const refresh = getRefreshToken();
  try {
    if (refresh) {
      const body: JwtLogoutRequest = { refresh };
      await apiFetch(apiPaths.jwtLogout, { method: 'POST', json: body });
    }
  } catch (error) {
    console.error('JWT logout failed', error);
  } finally {
    clearAuth();
  }
}
