import { apiPaths, type JwtLogoutRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { clearAuth, getRefreshToken } from '@/lib/auth';

/**
 * JWT-style logout: POST {refresh} so the server ends that session. This browser forgets the session
 * at once, whatever the answer (docs/web-app.md, "The session in the browser"); a failure is only logged.
 */
export function logoutJwt(): void {
  const refresh = getRefreshToken();
  if (refresh) {
    const body: JwtLogoutRequest = { refresh };
    apiFetch(apiPaths.jwtLogout, { method: 'POST', json: body, keepalive: true }).catch((error: unknown) =>
      console.error('JWT logout failed', error),
    );
  }
  clearAuth();
}
