import { useEffect, useState } from 'react';
import { apiPaths, type Profile } from '@hello/contract';
import { apiJson } from '@/lib/api-client';
import { setUserEmail } from '@/lib/auth';
import { AuthLostError } from '@/lib/errors';

/** GET /api/v1/user/profile/ with a Bearer token. */
export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return apiJson<Profile>(apiPaths.userProfile, { auth: 'bearer', ...(signal ? { signal } : {}) });
}

export type ProfileState =
  | { status: 'loading' }
  | { status: 'ready'; profile: Profile }
  | { status: 'failed' };

/** The signed-in user's profile, loaded once on mount; `replace` shows a saved version. */
export function useProfile(): [ProfileState, (profile: Profile) => void] {
  const [state, setState] = useState<ProfileState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    getProfile(controller.signal).then(
      (profile) => {
        setUserEmail(profile.email || null);
        setState({ status: 'ready', profile });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (!(error instanceof AuthLostError)) console.error('Could not load the profile', error);
        setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, []);
  return [state, (profile) => setState({ status: 'ready', profile })];
}
