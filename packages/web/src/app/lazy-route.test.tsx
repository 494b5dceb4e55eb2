import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spyConsoleError } from '../../test/helpers';
import { lazyRoute } from './lazy-route';

const Page = () => <p>The page</p>;

describe('lazy route', () => {
  beforeEach(() => {
    // shouldAdvanceTime: the clock still moves on its own, so Testing Library's waitFor works.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    spyConsoleError();
  });
  afterEach(() => vi.useRealTimers());

  it('shows a message with Retry when the chunk takes longer than 120 s, and Retry loads it again', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockReturnValueOnce(new Promise(() => {}))
      .mockResolvedValueOnce({ default: Page });
    const Route = lazyRoute(load);
    render(<Route />);
    expect(screen.getByText('Loading ...')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(119_000));
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    // The failure is the page's h1: a screen-reader user landing here has a heading.
    expect(screen.getByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('more than two minutes');

    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows a message with Retry when the chunk fails to load', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Page });
    const Route = lazyRoute(load);
    render(<Route />);
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('This page could not be loaded');
    expect(screen.getByRole('alert')).toHaveTextContent('Its code could not be fetched');
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByText('The page')).toBeInTheDocument();
  });
});
