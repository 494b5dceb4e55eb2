import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { ApiError, AuthLostError } from './errors';

/** `notfound`: the server answered 404, which a page shows differently from a failure. */
export type ResourceStatus = 'loading' | 'ready' | 'failed' | 'notfound';

export interface Resource<T> {
  status: ResourceStatus;
  /** What the last successful load of this key gave; kept while it is reloaded. */
  data: T | undefined;
  /** Loads again (Retry, `refresh this page`) without reloading the page. */
  reload: () => void;
  /** Shows newer data the page already has (e.g. what a save answered) without loading. */
  replace: (data: T) => void;
}

interface Settled<T> {
  key: string;
  generation: number;
  status: Exclude<ResourceStatus, 'loading'>;
  data: T | undefined;
}

/**
 * Loads something on mount and whenever `key` changes, aborting the request the page no longer
 * needs. `load` may be a new function on every render; the one of the latest render is called.
 * Failures are logged (a lost session has redirected to /login already, so it is not); `what`
 * names the data in that log line.
 */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>, what: string): Resource<T> {
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const start = useEffectEvent((signal: AbortSignal) => load(signal));
  const report = useEffectEvent((error: unknown) => {
    if (!(error instanceof AuthLostError)) console.error(`Could not load ${what}`, error);
  });

  useEffect(() => {
    const controller = new AbortController();
    const settle = (status: Settled<T>['status'], data?: T) =>
      setSettled((previous) => ({
        key,
        generation,
        status,
        data: status === 'ready' ? data : previous?.key === key ? previous.data : undefined,
      }));
    start(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) settle('ready', data);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const notFound = error instanceof ApiError && error.status === 404;
        if (!notFound) report(error);
        settle(notFound ? 'notfound' : 'failed');
      },
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const replace = useCallback((data: T) => setSettled({ key, generation, status: 'ready', data }), [key, generation]);

  // A load whose answer has not arrived yet is `loading`, derived rather than set in the effect.
  const current = settled?.key === key;
  const status = current && settled.generation === generation ? settled.status : 'loading';
  return { status, data: current ? settled.data : undefined, reload, replace };
}
