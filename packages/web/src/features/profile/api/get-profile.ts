import type { Profile } from '@hello/contract';
import { loadOwnProfile } from '@/lib/profile-request';
import { useAccountKey } from '@/lib/same-account';
import { useResource } from '@/lib/use-resource';

export type ProfileState = { status: 'loading' } | { status: 'ready'; profile: Profile } | { status: 'failed' };

/**
 * The signed-in user's profile, loaded on mount and again for another account; `replace` shows a
 * saved version. Not aborted when the page leaves: the request may be the header's too
 * (lib/profile-request.ts); useResource drops an answer the page no longer needs.
 */
export function useProfile(): [ProfileState, (profile: Profile) => void] {
  const { status, data, replace } = useResource(`profile-${useAccountKey()}`, loadOwnProfile, 'the profile');
  const state: ProfileState =
    status === 'ready' && data ? { status, profile: data } : status === 'loading' ? { status } : { status: 'failed' };
  return [state, replace];
}
