import { apiPaths, appRoutes, type ResetRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';

/**
 * POST /api/password_reset/. The server mails PUBLIC_URL + this path + ?token=…, so the path we
 * send is the page that reads that token.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const body: ResetRequest = { email, reset_new_password_path: appRoutes.resetNewPassword };
  await apiFetch(apiPaths.passwordReset, { method: 'POST', json: body });
}
