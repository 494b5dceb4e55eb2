import { apiPaths, userSessionPath, type RevokeOthersResponse, type SessionInfo } from '@hello/contract';
import { apiFetch, apiJson } from '@/lib/api-client';
import { clearAuth } from '@/lib/auth';
import { useAccountKey } from '@/lib/same-account';
import { useResource } from '@/lib/use-resource';

/** GET /api/v1/user/sessions/ with a Bearer token: the caller's live sessions, most recently used first. */
export function getSessions(signal?: AbortSignal): Promise<SessionInfo[]> {
  return apiJson<SessionInfo[]>(apiPaths.userSessions, { auth: 'bearer', ...(signal ? { signal } : {}) });
}

export function useSessions() {
  return useResource(`sessions-${useAccountKey()}`, getSessions, 'the sessions');
}

/** DELETE /api/v1/user/sessions/{id}/: that session ends at once (204; 404 when it had ended already). */
export async function endSession(id: string): Promise<void> {
  await apiFetch(userSessionPath(id), { method: 'DELETE', auth: 'bearer' });
}

/**
 * Ends this browser's own session, as the token-style logout does: with the refresh token, read as
 * the call starts (an access token held may have expired, or been dropped when another tab signed
 * in), and forgotten at once; `keepalive` lets the call finish after the page is gone.
 */
export function endThisSession(): void {
  apiFetch(apiPaths.logout, { method: 'POST', auth: 'token', refreshOnExpiry: false, keepalive: true }).catch(
    (error: unknown) => console.error('Could not end this session on the server', error),
  );
  clearAuth();
}

/** POST /api/v1/user/sessions/revoke-others/: every session but this one ends; answers how many did. */
export async function revokeOtherSessions(): Promise<number> {
  const { revoked } = await apiJson<RevokeOthersResponse>(apiPaths.revokeOtherSessions, {
    method: 'POST',
    auth: 'bearer',
  });
  return revoked;
}
