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
 * The signed-in user's e-mail; null when nobody is signed in (a session that has ended has already
 * sent the user to /login), undefined when the server could not say (logged). The header asks it
 * after a reload, pages when they need it.
 */
export function findCurrentUserEmail(): Promise<string | null | undefined> {
  return loadEmail().catch((error: unknown) => {
    if (error instanceof AuthLostError) return null;
    console.error('Could not find out who is signed in', error);
    return undefined;
  });
}

/** The server could not say who is signed in (network, 5xx): not known, which is not nobody. */
export interface LookupFailed {
  retry: () => void;
}

/**
 * The signed-in user's e-mail: known after login or registration, otherwise loaded once from the
 * profile while a token is stored. `undefined` while that is being found out, `null` when nobody
 * is signed in, `LookupFailed` (with `retry`) when the server could not say.
 */
export function useCurrentUserEmail(): string | null | undefined | LookupFailed {
  const { email, hasRefreshToken } = useAuth();
  // How the last lookup ended without an e-mail: null nobody named, else failed.
  const [ended, setEnded] = useState<LookupFailed | null>();
  const [attempt, setAttempt] = useState(0);
  // Signed out and in again (another tab): the last lookup's end is no answer for the new session.
  const [lookedUpFor, setLookedUpFor] = useState(hasRefreshToken);
  if (lookedUpFor !== hasRefreshToken) {
    setLookedUpFor(hasRefreshToken);
    setEnded(undefined);
  }

  useEffect(() => {
    if (email || !hasRefreshToken) return;
    let active = true;
    void findCurrentUserEmail().then((found) => {
      if (!active || found) return;
      const retry = () => {
        setEnded(undefined);
        setAttempt((n) => n + 1);
      };
      setEnded(found === null ? null : { retry });
    });
    return () => {
      active = false;
    };
  }, [email, hasRefreshToken, attempt]);

  if (email) return email;
  return hasRefreshToken ? ended : null;
}
