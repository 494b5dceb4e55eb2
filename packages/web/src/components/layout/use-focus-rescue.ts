import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * When the element that had focus inside `main` leaves the page (Retry, whose failed load gives way
 * to `Loading ...`), focus goes to the page's h1 instead of falling to `<body>`, where a keyboard or
 * screen-reader user would start again from the top of the document (docs/web-app.md,
 * "Accessibility"). Browsers fire no blur for a removed element, so a MutationObserver notices it.
 * A page that moves focus itself (a list's new item, a status line) has done so by then: left alone.
 * A change of page, whose old page leaves with its focused link, is use-heading-focus.ts's to finish:
 * it moves focus to the new page's h1, and scrolls to it.
 */
export function useFocusRescue(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  // The page shown, as of the commit that shows it: set before the observer hears of that commit.
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    shown.current = pathname;
  }, [pathname]);
  useEffect(() => {
    const root = main.current;
    if (!root) return;
    let focused: Element | null = null;
    let focusedOn = '';
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target as Element;
      focusedOn = shown.current;
    };
    const observer = new MutationObserver(() => {
      if (!focused || focused.isConnected) return;
      focused = null;
      if (focusedOn !== shown.current) {
        // Another page now, its code perhaps still on its way: <main> holds focus until
        // use-heading-focus.ts gives it to the page's h1, rather than <body>.
        if (document.activeElement === document.body) root.focus({ preventScroll: true });
        return;
      }
      // A frame later: a page's own move (in an effect after this commit, or once its work ends)
      // comes first, and focus does not hop through the h1 on its way.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (active === null || active === document.body) root.querySelector<HTMLElement>('h1')?.focus();
      });
    });
    root.addEventListener('focusin', onFocusIn);
    observer.observe(root, { childList: true, subtree: true });
    return () => {
      root.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, [main]);
}
