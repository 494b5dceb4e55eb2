import { useState } from 'react';
import { useAuth } from './auth';

/**
 * Which account a signed-in page shows: it changes when a session starts (another tab signed in
 * again) and when another tab's sign-in turns out to be another account's (its e-mail, once known,
 * differs). Account pages key what they load by it, so that they never go on showing, or changing,
 * the account before. Signing out changes nothing: a page of this tab that signed out (a deletion,
 * "Log out" on this device) goes where it means to, and one signed out by another tab is sent to
 * /login by its next call. A new token of the same account (its profile saved in another tab)
 * changes nothing either: what is typed stays.
 */
export function useAccountKey(): number {
  const { email, hasRefreshToken } = useAuth();
  const [seen, setSeen] = useState({ email, signedIn: hasRefreshToken, key: 0 });
  const started = hasRefreshToken && !seen.signedIn;
  const changed = started || (!!email && !!seen.email && !sameEmail(email, seen.email));
  if (changed) setSeen({ email, signedIn: hasRefreshToken, key: seen.key + 1 });
  else if (hasRefreshToken !== seen.signedIn) setSeen({ ...seen, email: null, signedIn: hasRefreshToken });
  else if (email && !seen.email) setSeen({ ...seen, email });
  return changed ? seen.key + 1 : seen.key;
}

/**
 * E-mail addresses name one account regardless of letter case, and of a domain written in Unicode or
 * in ASCII (docs/api.md, "Logging in and out"): Firefox sends `ann@bücher.de` as typed, the server
 * keeps and answers `ann@xn--bcher-kva.de`.
 */
export function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return emailKey(a) === emailKey(b);
}

function emailKey(address: string): string {
  const at = address.lastIndexOf('@');
  try {
    // The URL parser writes a host in ASCII, lower-cased.
    return `${address.slice(0, at + 1)}${new URL(`http://${address.slice(at + 1)}`).hostname}`.toLowerCase();
  } catch {
    return address.toLowerCase();
  }
}
