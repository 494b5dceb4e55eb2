import { apiPaths, type Profile } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { useResource } from '@/lib/use-resource';

async function loadEmail(signal: AbortSignal): Promise<string> {
  const profile = await apiJson<Profile>(apiPaths.userProfile, { auth: 'bearer', signal });
  return profile.email;
}

/**
 * The signed-in account's e-mail, asked of the server when the page opens: the pages that change
 * the account name it, and, like every page that needs a session, a visitor who has none is sent
 * to /login (and back afterwards) by that first call rather than after filling in a form.
 */
export function useAccountEmail(): string | undefined {
  return useResource('account-email', loadEmail, 'the account').data;
}
