import { apiPaths, type ChangeEmailRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';

/**
 * POST /api/v1/user/email/ {new_email, password}: 200 once a confirmation link was mailed to the new
 * address. The account's e-mail changes only when that link is opened (/confirmemail).
 */
export async function changeEmail(request: ChangeEmailRequest): Promise<void> {
  await apiFetch(apiPaths.changeEmail, { method: 'POST', auth: 'bearer', json: request });
}
