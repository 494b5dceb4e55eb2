import { useEffect, type Ref } from 'react';
import { Link } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { useAuth } from '@/lib/auth';

export interface SiteHeaderProps {
  menuOpen: boolean;
  onToggleMenu: () => void;
  menuToggleRef?: Ref<HTMLButtonElement>;
}

/** `Hello all!` over every page, the session status, and the phone menu's toggle. */
export function SiteHeader({ menuOpen, onToggleMenu, menuToggleRef }: SiteHeaderProps) {
  const { hasRefreshToken, email } = useAuth();
  // After a reload only the refresh token is known: ask the server whose it is, from a chunk of
  // its own (the home page's budget).
  useEffect(() => {
    if (!hasRefreshToken || email) return;
    void import('@/lib/current-user').then(
      (user) => user.findCurrentUserEmail(),
      (error: unknown) => console.error('Could not load the code that finds out who is signed in', error),
    );
  }, [hasRefreshToken, email]);
  return (
    <header className="site-header">
      <div className="site-header-inner">
        {/* The site's name, not a heading: each page's own title is its h1. */}
        <p className="brand">
          <Link to={appRoutes.home}>{texts.header}</Link>
        </p>
        <p className={hasRefreshToken ? 'auth-badge signed-in' : 'auth-badge'}>
          {hasRefreshToken ? (email ? `Signed in as ${email}` : 'Signed in') : 'Not signed in'}
        </p>
        <button
          ref={menuToggleRef}
          type="button"
          className="btn btn-quiet menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={onToggleMenu}
        >
          Menu
        </button>
      </div>
    </header>
  );
}
