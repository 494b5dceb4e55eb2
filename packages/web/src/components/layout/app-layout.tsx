import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { SiteHeader } from './site-header';
import { SiteNav } from './site-nav';
import { useFocusRescue } from './use-focus-rescue';
import { useHeadingFocus } from './use-heading-focus';

/** The frame of every route: header, navigation and the page in <main>. */
export function AppLayout() {
  const { pathname } = useLocation();
  // The phone menu is open for the page it was opened on: following a link closes it, so the
  // new page is what the user sees next.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const main = useRef<HTMLElement>(null);
  const menuToggle = useRef<HTMLButtonElement>(null);
  useHeadingFocus(main);
  useFocusRescue(main);
  // Escape closes the open menu from its toggle or its links, and puts focus back on the toggle.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target as Node;
      const inMenu = menuToggle.current?.contains(target) || document.getElementById('site-nav')?.contains(target);
      if (event.key !== 'Escape' || !inMenu) return;
      setOpenOn(null);
      menuToggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader
        menuOpen={menuOpen}
        onToggleMenu={() => setOpenOn(menuOpen ? null : pathname)}
        menuToggleRef={menuToggle}
      />
      <div className="shell">
        <SiteNav open={menuOpen} />
        <main id="main" ref={main} tabIndex={-1}>
          {/* Keyed by path: an error on one page must not stick to the next one. */}
          <ErrorBoundary key={pathname}>
            <Outlet />
          </ErrorBoundary>
        </main>
      </div>
    </>
  );
}
