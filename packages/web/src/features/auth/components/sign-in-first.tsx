import { Link, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { loginPath } from '@/lib/auth-redirect';

/**
 * Over a form only a signed-in user can send, for a visitor who is not signed in: says so before
 * anything is typed, with a way to log in and come back. The form stays (the specification shows no
 * route guards), but sending it signed out leads to the login page, and what was typed is lost.
 */
export function SignInFirst({ toDo }: { toDo: string }) {
  const { hasRefreshToken } = useAuth();
  const { pathname, search } = useLocation();
  if (hasRefreshToken) return null;
  return (
    <div className="alert alert-info">
      <p>
        You are not logged in. <Link to={loginPath(pathname + search)}>Log in</Link> first to {toDo}: what you type here
        is not kept.
      </p>
    </div>
  );
}
