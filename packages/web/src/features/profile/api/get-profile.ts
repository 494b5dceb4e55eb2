import type { Profile } from '@hello/contract';
import { setUserEmail } from '@/lib/auth';
import { askProfile } from '@/lib/profile-request';
import { useResource } from '@/lib/use-resource';

export type ProfileState = { status: 'loading' } | { status: 'ready'; profile: Profile } | { status: 'failed' };

/**
 * Not aborted when the page leaves: the request may be the header's too (lib/profile-request.ts), and
 * the page ignores an answer it no longer needs.
 */
async function loadProfile(): Promise<Profile> {
  const profile = await askProfile();
  setUserEmail(profile.email || null);
  return profile;
}

/** The signed-in user's profile, loaded once on mount; `replace` shows a saved version. */
export function useProfile(): [ProfileState, (profile: Profile) => void] {
  const { status, data, replace } = useResource('profile', loadProfile, 'the profile');
  const state: ProfileState =
    status === 'ready' && data ? { status, profile: data } : status === 'loading' ? { status } : { status: 'failed' };
  return [state, replace];
}
