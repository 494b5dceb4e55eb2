import { useEffect, useRef, type RefObject } from 'react';

/**
 * True while the component is on the page, false once the user has left it. A save or a deletion
 * is not aborted when the page is left (what was sent must not be lost half-way); it ends, but then
 * takes the user nowhere from where they went meanwhile.
 */
export function useStillShown(): RefObject<boolean> {
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  return shown;
}

/**
 * Waits for an upload; until it ends, even after the page is left, closing or reloading the tab
 * (which would cut the upload off) asks first.
 */
export async function untilUploaded<T>(upload: Promise<T>): Promise<T> {
  const warn = (event: BeforeUnloadEvent) => event.preventDefault();
  window.addEventListener('beforeunload', warn);
  try {
    return await upload;
  } finally {
    window.removeEventListener('beforeunload', warn);
  }
}
