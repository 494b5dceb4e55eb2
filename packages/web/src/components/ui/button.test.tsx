import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';

/** A button that disables itself while its work runs, as Submit, Retry or Delete do. */
function Busy({ onWork }: { onWork: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button
        onClick={() => {
          onWork();
          setBusy(true);
        }}
        disabled={busy}
      >
        Retry
      </Button>
      <Button onClick={() => setBusy(false)}>Done</Button>
      <input aria-label="elsewhere" />
    </>
  );
}

describe('Button', () => {
  it('keeps focus when pressing it disables it, ignores presses meanwhile, and is natively disabled once left', async () => {
    const user = userEvent.setup();
    const onWork = vi.fn();
    render(<Busy onWork={onWork} />);
    const retry = screen.getByRole('button', { name: 'Retry' });
    await user.tab();
    expect(retry).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onWork).toHaveBeenCalledTimes(1);
    // Disabled, yet still focused: not natively disabled, which would drop focus to <body>.
    expect(retry).toHaveFocus();
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    expect(retry).not.toBeDisabled();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onWork).toHaveBeenCalledTimes(1);
    // Focus leaves: natively disabled, out of the tab order.
    await user.click(screen.getByLabelText('elsewhere'));
    expect(retry).toBeDisabled();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Done' })).toHaveFocus();
    await user.tab({ shift: true }); // past Retry, out of the tab order while disabled
    expect(retry).not.toHaveFocus();
    expect(document.body).toHaveFocus();
  });

  it('submits no form while disabled and focused', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: SubmitEvent) => event.preventDefault());
    function Form() {
      const [sent, setSent] = useState(false);
      return (
        <form
          onSubmit={(event) => {
            onSubmit(event.nativeEvent as SubmitEvent);
            setSent(true);
          }}
        >
          <input aria-label="field" />
          <Button type="submit" disabled={sent}>
            Submit
          </Button>
        </form>
      );
    }
    render(<Form />);
    const submit = screen.getByRole('button', { name: 'Submit' });
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(submit).toHaveFocus();
    await user.click(submit);
    await user.click(screen.getByLabelText('field'));
    await user.keyboard('{Enter}'); // implicit submission through the default button
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
