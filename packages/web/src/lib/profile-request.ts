import { apiPaths, type Profile } from '@hello/contract';
import { apiJson } from './api-client';
import { identityVersion, setUserEmail } from './auth';

let inFlight: { identity: number; answer: Promise<Profile> } | null = null;

/**
 * GET /api/v1/user/profile/ with a Bearer token. Callers at the same moment share one request: on a
 * fresh load of /userprofile the header asks who is signed in while the page asks for the profile.
 * Shared only while it is on its way, and only within the session it was asked for
 * (`identityVersion`): this is not a cache, a later call asks again.
 */
export function askProfile(): Promise<Profile> {
  const identity = identityVersion();
  if (inFlight?.identity === identity) return inFlight.answer;
  const asked = { identity, answer: apiJson<Profile>(apiPaths.userProfile, { auth: 'bearer' }) };
  inFlight = asked;
  const done = () => {
    if (inFlight === asked) inFlight = null;
  };
  asked.answer.then(done, done);
  return asked.answer;
}

/**
 * The profile for a page (askProfile), whose e-mail then names the signed-in user beside the tokens
 * (current-user.ts), so the header asks nothing more. An answer asked for before the session changed
 * hands (another tab) is the account before's: asked again, a few times at most.
 */
export async function loadOwnProfile(): Promise<Profile> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const asked = identityVersion();
    const profile = await askProfile();
    if (identityVersion() !== asked) continue;
    setUserEmail(profile.email || null);
    return profile;
  }
  throw new Error('The session kept changing while the profile was asked for');
}
