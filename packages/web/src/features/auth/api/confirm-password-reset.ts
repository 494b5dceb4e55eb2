import { apiPaths, type ResetConfirmRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';

/** POST /api/password_reset/confirm/: status 200 is success (docs/api.md, "Password reset"). */
export async function confirmPasswordReset(request: ResetConfirmRequest): Promise<void> {
  await apiFetch(apiPaths.passwordResetConfirm, { method: 'POST', json: request });
}
