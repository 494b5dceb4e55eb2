import {
  apiPaths,
  type TotpConfirmResponse,
  type TotpDisableRequest,
  type TotpSetupResponse,
  type TotpStatus,
} from '@hello/contract';
import { apiFetch, apiJson } from '@/lib/api-client';
import { useAccountKey } from '@/lib/same-account';
import { useResource } from '@/lib/use-resource';

/** GET /api/v1/user/totp/ with a Bearer token: whether two-step sign-in is on, and the recovery codes left. */
export function getTwoStepStatus(signal?: AbortSignal): Promise<TotpStatus> {
  return apiJson<TotpStatus>(apiPaths.totp, { auth: 'bearer', ...(signal ? { signal } : {}) });
}

export function useTwoStepStatus() {
  return useResource(`two-step-${useAccountKey()}`, getTwoStepStatus, 'the two-step sign-in status');
}

/** POST /api/v1/user/totp/setup/ {password}: a new secret, not in use until a first code confirms it. */
export function setUpTwoStep(password: string): Promise<TotpSetupResponse> {
  return apiJson<TotpSetupResponse>(apiPaths.totpSetup, { method: 'POST', auth: 'bearer', json: { password } });
}

/**
 * POST /api/v1/user/totp/confirm/ {code}: two-step sign-in is on; answers the ten recovery codes, this
 * once. Every other session of the account ends; this browser's goes on.
 */
export async function confirmTwoStep(code: string): Promise<string[]> {
  const { recovery_codes } = await apiJson<TotpConfirmResponse>(apiPaths.totpConfirm, {
    method: 'POST',
    auth: 'bearer',
    json: { code },
  });
  return recovery_codes;
}

/** POST /api/v1/user/totp/disable/ {password, code}: off again (the code may be a recovery code). */
export async function disableTwoStep(request: TotpDisableRequest): Promise<void> {
  await apiFetch(apiPaths.totpDisable, { method: 'POST', auth: 'bearer', json: request });
}
