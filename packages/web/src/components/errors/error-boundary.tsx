import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';

interface State {
  failed: boolean;
}

/** A crash inside one page shows a message and a way out instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    // The failure is the page's h1 (its own title went with it): a screen-reader user landing here has a heading.
    return (
      <Page title="Something went wrong on this page">
        <Alert>
          <p>Reloading usually helps.</p>
          <Button onClick={() => window.location.reload()}>Reload</Button>
        </Alert>
      </Page>
    );
  }
}
