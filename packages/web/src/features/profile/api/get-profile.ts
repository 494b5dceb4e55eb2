import { apiPaths, type Profile } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { setUserEmail } from '@/lib/auth';
import { useResource } from '@/lib/use-resource';

/** GET /api/v1/user/profile/ with a Bearer token. */
export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return apiJson<Profile>(apiPaths.userProfile, { auth: 'bearer', ...(signal ? { signal } : {}) });
}

export type ProfileState = { status: 'loading' } | { status: 'ready'; profile: Profile } | { status: 'failed' };

async function loadProfile(signal: AbortSignal): Promise<Profile> {
  const profile = await getProfile(signal);
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
