import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side route change, moves focus to the new page's h1 inside `main` (once it is there:
 * a lazily loaded page's heading comes with its chunk), so keyboard and screen-reader users start at
 * the new page, not on the link they left. Not on the first load, not when the page has already
 * put focus inside `main` itself (a form's field, a list's new item), and not when the user has moved
 * it elsewhere while the page's code was on its way.
 */
export function useHeadingFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    const root = main.current;
    if (shown.current === pathname || !root) return;
    shown.current = pathname;
    // Where focus was outside <main> as the page changed (the menu's link followed), if anywhere.
    const from = root.contains(document.activeElement) ? null : document.activeElement;
    const focusHeading = () => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      const active = document.activeElement;
      // Not taken from where the user has gone since (a page whose code came late), nor from a
      // control of the new page's own choosing.
      if (active === from || active === root || active === document.body || active === null) heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => focusHeading() && observer.disconnect());
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [main, pathname]);
}
