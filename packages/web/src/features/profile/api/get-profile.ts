import type { Profile } from '@hello/contract';
import { identityVersion, setUserEmail } from '@/lib/auth';
import { askProfile } from '@/lib/profile-request';
import { useResource } from '@/lib/use-resource';

export type ProfileState = { status: 'loading' } | { status: 'ready'; profile: Profile } | { status: 'failed' };

/**
 * Not aborted when the page leaves: the request may be the header's too (lib/profile-request.ts);
 * useResource drops an answer the page no longer needs. The e-mail is taken only from an answer
 * asked for within the session still signed in (`identityVersion`).
 */
async function loadProfile(): Promise<Profile> {
  const asked = identityVersion();
  const profile = await askProfile();
  if (identityVersion() === asked) setUserEmail(profile.email || null);
  return profile;
}

/** The signed-in user's profile, loaded once on mount; `replace` shows a saved version. */
export function useProfile(): [ProfileState, (profile: Profile) => void] {
  const { status, data, replace } = useResource('profile', loadProfile, 'the profile');
  const state: ProfileState =
    status === 'ready' && data ? { status, profile: data } : status === 'loading' ? { status } : { status: 'failed' };
  return [state, replace];
}
