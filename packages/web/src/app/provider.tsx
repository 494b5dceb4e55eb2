import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { restoreSession } from '@/lib/api-client';
import { setLoginNavigator } from '@/lib/auth-redirect';

/**
 * Lets the API client (plain code, no hooks) send the user to /login through the router, so the
 * redirect keeps the app's state and passes the previous location as router state. Then, with a
 * stored refresh token, gets an access token right away (docs/web-app.md, "The session in the browser");
 * doing it here guarantees the router can redirect if that token has expired.
 */
function SessionBootstrap() {
  const navigate = useNavigate();
  useEffect(() => setLoginNavigator((to, state) => void navigate(to, { replace: true, state })), [navigate]);
  // Declared after the navigator effect, so it runs after it on mount.
  useEffect(() => restoreSession(), []);
  return null;
}

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <>
      <SessionBootstrap />
      {children}
    </>
  );
}
