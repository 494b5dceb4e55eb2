import { apiPaths, type ConfirmEmailRequest } from '@hello/contract';
import { apiFetch } from '@/lib/api-client';
import { ApiError } from '@/lib/errors';
import { setUserEmail } from '@/lib/auth';

/**
 * POST /api/v1/user/email/confirm/ {token} (anonymous): true when the address was changed, false when
 * the server knows no such token (404: used, expired or never issued). Other failures throw.
 */
async function postConfirmation(token: string): Promise<boolean> {
  const body: ConfirmEmailRequest = { token };
  try {
    await apiFetch(apiPaths.confirmEmail, { method: 'POST', json: body });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
  // The address kept in memory is the old one now; the next page that needs it asks again.
  setUserEmail(null);
  return true;
}

// A token is single-use: a second POST of the same one would answer 404 and hide the first one's
// success. React runs a mounting effect twice in development (StrictMode), and the page may mount
// again for the same link, so each token is posted once per page load and the answer shared.
const confirmations = new Map<string, Promise<boolean>>();

export function confirmEmail(token: string): Promise<boolean> {
  let pending = confirmations.get(token);
  if (!pending) {
    pending = postConfirmation(token);
    // A failure that is not an answer about the token (network, 5xx) may be tried again.
    pending.catch(() => confirmations.delete(token));
    confirmations.set(token, pending);
  }
  return pending;
}
