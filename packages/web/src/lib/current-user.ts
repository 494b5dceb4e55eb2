import { useEffect, useState } from 'react';
import type { Profile } from '@hello/contract';
import { getAuthState, getRefreshToken, identityVersion, setUserEmail, useAuth } from './auth';
import { AuthLostError } from './errors';
import { askProfile } from './profile-request';

/**
 * Asks the server who is signed in (GET /api/v1/user/profile/; the access token carries no e-mail)
 * and keeps the answer in memory beside the tokens. Concurrent callers share one request, the
 * profile page's too (profile-request.ts). An answer that arrives after the session changed hands or
 * the e-mail was forgotten (another tab, a confirmed change: `identityVersion`) may be stale, so it
 * is asked again, a few times at most.
 */
async function loadEmail(): Promise<string | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    // Logged out meanwhile (here or in another tab): nobody to ask about, and no reason for /login.
    if (!getRefreshToken()) return null;
    // Learned meanwhile (a login, or the profile page's own load): nothing to ask.
    const known = getAuthState().email;
    if (known) return known;
    const asked = identityVersion();
    // An empty answer would read as null: nobody named.
    const profile: Profile | null = await askProfile();
    if (identityVersion() !== asked) continue;
    const email = profile?.email || null;
    if (email) setUserEmail(email);
    return email;
  }
  return null;
}

/**
 * The signed-in user's e-mail, or null when the server could not say (logged; a session that has
 * ended has already sent the user to /login). The header asks it after a reload, pages when they need it.
 */
export function findCurrentUserEmail(): Promise<string | null> {
  return loadEmail().catch((error: unknown) => {
    if (!(error instanceof AuthLostError)) console.error('Could not find out who is signed in', error);
    return null;
  });
}

/**
 * The signed-in user's e-mail: known after login or registration, otherwise loaded once from the
 * profile while a token is stored. `undefined` while that is being found out, `null` when nobody
 * is signed in or the server could not say.
 */
export function useCurrentUserEmail(): string | null | undefined {
  const { email, hasRefreshToken } = useAuth();
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    if (email || !hasRefreshToken) return;
    let active = true;
    void findCurrentUserEmail().then((found) => {
      if (active && !found) setGaveUp(true);
    });
    return () => {
      active = false;
    };
  }, [email, hasRefreshToken]);

  if (email) return email;
  return hasRefreshToken && !gaveUp ? undefined : null;
}
