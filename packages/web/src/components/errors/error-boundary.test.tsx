import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { spyConsoleError } from '../../../test/helpers';
import { ErrorBoundary } from './error-boundary';

function Crash(): never {
  throw new Error('boom');
}

describe('ErrorBoundary', () => {
  it('shows the failure as the page’s h1, with Reload, and logs it', () => {
    const consoleError = spyConsoleError();
    render(
      <main>
        <ErrorBoundary>
          <Crash />
        </ErrorBoundary>
      </main>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong on this page' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Reloading usually helps.');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('A page failed to render', expect.any(Error), expect.any(String));
  });
});
