import { loadOwnProfile } from '@/lib/profile-request';
import { useAccountKey } from '@/lib/same-account';
import { useResource } from '@/lib/use-resource';

// The profile asked as the header asks it, at the same moment on a fresh load: one request.
const loadEmail = async () => (await loadOwnProfile()).email;

/**
 * The signed-in account's e-mail, asked of the server when the page opens: the pages that change
 * the account name it, and, like every page that needs a session, a visitor who has none is sent
 * to /login (and back afterwards) by that first call rather than after filling in a form.
 */
export function useAccountEmail(): string | undefined {
  return useResource(`account-email-${useAccountKey()}`, loadEmail, 'the account').data;
}
