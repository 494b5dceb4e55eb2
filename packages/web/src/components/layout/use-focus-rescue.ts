import { useEffect, type RefObject } from 'react';

/**
 * When the element that had focus inside `main` leaves the page (Retry, whose failed load gives way
 * to `Loading ...`), focus goes to the page's h1 instead of falling to `<body>`, where a keyboard or
 * screen-reader user would start again from the top of the document (docs/web-app.md,
 * "Accessibility"). Browsers fire no blur for a removed element, so a MutationObserver notices it.
 * A page that moves focus itself (a list's new item, a status line) has done so by then: left alone.
 */
export function useFocusRescue(main: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = main.current;
    if (!root) return;
    let focused: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target as Element;
    };
    const observer = new MutationObserver(() => {
      if (!focused || focused.isConnected) return;
      focused = null;
      const active = document.activeElement;
      // Not scrolled to: a page that puts focus on what it added (its effect may come after this)
      // must not flash back to the top first.
      if (active === null || active === document.body)
        root.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
    });
    root.addEventListener('focusin', onFocusIn);
    observer.observe(root, { childList: true, subtree: true });
    return () => {
      root.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, [main]);
}
