import { useEffect, useState } from 'react';

/**
 * window.devicePixelRatio, kept current: it changes with browser zoom or when the window moves to
 * a screen of another density, and the canvas must then be redrawn to stay crisp.
 */
export function useDevicePixelRatio(): number {
  const [ratio, setRatio] = useState(() => window.devicePixelRatio || 1);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(`(resolution: ${ratio}dppx)`);
    const onChange = () => setRatio(window.devicePixelRatio || 1);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [ratio]);
  return ratio;
}
