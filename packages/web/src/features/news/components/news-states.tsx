import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** A load that failed (not a 404): say so and offer to try again. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Alert title={`${what} could not be loaded.`}>
      <p>The connection may have dropped, or the server had a problem.</p>
      <Button onClick={onRetry}>Retry</Button>
    </Alert>
  );
}

/** The text of an item page whose item the server does not have. */
export function NewsNotFound() {
  return (
    <>
      <p>This news item does not exist (or was deleted).</p>
      <p>
        <Link to={appRoutes.news}>See all news</Link>
      </p>
    </>
  );
}
