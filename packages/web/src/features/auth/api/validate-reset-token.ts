import { apiPaths, type ValidateResetTokenRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { ApiError } from '@/lib/errors';

/**
 * POST /api/password_reset/validate_token/: 200 for a usable token, 404 for an unknown, used or
 * expired one, 400 for one that cannot be a token (docs/api.md). Resolves to whether the token is
 * valid; other failures (network, 5xx) reject: they say nothing about the token.
 */
export async function validateResetToken(token: string): Promise<boolean> {
  const body: ValidateResetTokenRequest = { token };
  try {
    await apiFetch(apiPaths.passwordResetValidateToken, { method: 'POST', json: body });
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return false;
    throw error;
  }
}
