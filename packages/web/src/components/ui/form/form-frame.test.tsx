import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FormFrame, type FormFrameState } from './form-frame';

const state = (submitting: boolean): FormFrameState => ({
  submit: vi.fn(),
  reset: vi.fn(),
  alert: [],
  submitting,
  canAct: !submitting,
});

describe('FormFrame', () => {
  it('keeps its status line, empty, before Sending… is put in it (a region inserted with its text may go unannounced)', () => {
    const frame = (submitting: boolean) => (
      <FormFrame label="Test form" form={state(submitting)}>
        <input aria-label="Name" />
      </FormFrame>
    );
    const { rerender } = render(frame(false));
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    rerender(frame(true));
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toHaveTextContent('Sending…');

    rerender(frame(false));
    expect(screen.getByRole('status')).toBe(status);
    expect(status).toBeEmptyDOMElement();
  });
});
