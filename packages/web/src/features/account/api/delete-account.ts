import { apiPaths, type DeleteAccountRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { clearAuth } from '@/lib/auth';

/**
 * POST /api/v1/user/delete/ {password}: 204 once the account and everything it held are gone. Its
 * sessions went with it, so this browser forgets its tokens exactly as logout does.
 */
export async function deleteAccount(request: DeleteAccountRequest): Promise<void> {
  await apiFetch(apiPaths.deleteAccount, { method: 'POST', auth: 'bearer', json: request });
  clearAuth();
}
