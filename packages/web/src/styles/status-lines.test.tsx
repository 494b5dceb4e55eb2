import { readFileSync } from 'node:fs';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';

/** Applies one of the app's stylesheets (vitest loads none), so jsdom computes its rules. */
function applyStylesheet(path: string) {
  const style = document.createElement('style');
  style.textContent = readFileSync(`${__dirname}/../${path}`, 'utf8');
  document.head.append(style);
  onTestFinished(() => style.remove());
}

// A polite live region must be in the accessibility tree before its text arrives: an empty status
// line is kept out of the flow (no margin, padding, border or flex gap) rather than display: none.
describe('empty status lines', () => {
  it.each([
    ['components/ui/form/form.css', 'form-status'],
    ['components/ui/form/form.css', 'form-saved'],
    ['features/account/components/account.css', 'sessions-status'],
    ['features/auth/components/two-step.css', 'two-step-note'],
  ])('%s: an empty .%s stays in the accessibility tree and takes no room', (path, className) => {
    applyStylesheet(path);
    const { rerender } = render(<p role="status" className={className} />);
    const region = screen.getByRole('status');
    const style = getComputedStyle(region);
    expect(style.display).not.toBe('none');
    expect(style.position).toBe('absolute');
    // Out of the flow, it has no margin or gap; no padding or border makes it a 0×0 box.
    expect([style.paddingTop, style.paddingLeft].map(parseFloat)).toEqual([0, 0]);
    expect(style.borderLeftStyle === 'none' || parseFloat(style.borderLeftWidth) === 0).toBe(true);

    rerender(
      <p role="status" className={className}>
        Done.
      </p>,
    );
    expect(getComputedStyle(screen.getByRole('status')).position).not.toBe('absolute');
  });
});
