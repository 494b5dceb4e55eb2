import { Alert } from './alert';
import { Button } from './button';

/** A load that failed (not a 404): say so and offer to try again. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Alert title={`${what} could not be loaded.`}>
      <p>The connection may have dropped, or the server had a problem.</p>
      <Button onClick={onRetry}>Retry</Button>
    </Alert>
  );
}
