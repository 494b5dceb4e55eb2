import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side route change, moves focus to the new page's h1 inside `main` (once it is there:
 * a lazily loaded page's heading comes with its chunk), so keyboard and screen-reader users start at
 * the new page, not on the link they left. Not on the first load, and not when the page has already
 * put focus inside `main` itself (a form's field, a list's new item).
 */
export function useHeadingFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    const root = main.current;
    if (shown.current === pathname || !root) return;
    shown.current = pathname;
    const focusHeading = () => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      const active = document.activeElement;
      if (active === root || !root.contains(active)) heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => focusHeading() && observer.disconnect());
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [main, pathname]);
}
