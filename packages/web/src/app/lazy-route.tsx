import { useEffect, useState, type ComponentType } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { CHUNK_LOAD_TIMEOUT_MS } from '@/config/constants';

type RouteModule = { default: ComponentType };
type Loader = () => Promise<RouteModule>;

export class ChunkTimeoutError extends Error {
  constructor(ms: number) {
    super(`The page's code did not arrive within ${ms / 1000} s`);
    this.name = 'ChunkTimeoutError';
  }
}

/** docs/web-app.md, "Constants": a chunk that has not loaded after 120 s counts as failed. */
export function loadWithTimeout(load: Loader, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<RouteModule> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError(ms)), ms);
    load()
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}

type State = { status: 'loading' } | { status: 'failed'; timedOut: boolean };

/**
 * A route whose code is a separate chunk, fetched on first visit. Unlike React.lazy, a chunk that
 * fails or times out leaves a message with Retry, never a blank page; retrying calls the import
 * again (browsers retry a failed module fetch).
 */
export function lazyRoute(load: Loader): ComponentType {
  let Loaded: ComponentType | null = null;

  return function LazyRoute() {
    const [state, setState] = useState<State>({ status: 'loading' });
    const [attempt, setAttempt] = useState(0);
    const [, setReady] = useState(false);

    useEffect(() => {
      if (Loaded) return;
      let active = true;
      loadWithTimeout(load).then(
        (module) => {
          Loaded = module.default;
          if (active) setReady(true);
        },
        (error: unknown) => {
          console.error('Could not load the page', error);
          if (active) setState({ status: 'failed', timedOut: error instanceof ChunkTimeoutError });
        },
      );
      return () => {
        active = false;
      };
    }, [attempt]);

    if (Loaded) return <Loaded />;
    if (state.status === 'loading') {
      return (
        <div className="route-loading">
          <Loading />
        </div>
      );
    }
    // The failure is the h1 (the page's own title comes with its code).
    return (
      <Page title="This page could not be loaded">
        <Alert>
          <p>
            {state.timedOut
              ? 'Its code took more than two minutes to arrive.'
              : 'Its code could not be fetched; the connection may have dropped, or the app was updated.'}
          </p>
          <div className="row">
            <Button
              onClick={() => {
                setState({ status: 'loading' });
                setAttempt((n) => n + 1);
              }}
            >
              Retry
            </Button>
            {attempt > 0 && (
              <Button variant="secondary" onClick={() => window.location.reload()}>
                Reload the app
              </Button>
            )}
          </div>
        </Alert>
      </Page>
    );
  };
}
