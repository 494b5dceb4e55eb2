import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, spyConsoleError } from '../../test/helpers';
import { ApiError } from './errors';
import { useResource } from './use-resource';

describe('useResource', () => {
  it('loads on mount, keeps the data while reloading, and aborts what is no longer wanted', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    const signals: AbortSignal[] = [];
    const load = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return answers[signals.length - 1]!.promise;
    });
    const { result, unmount } = renderHook(() => useResource('key', load, 'a thing'));
    expect(result.current.status).toBe('loading');
    await act(async () => answers[0]!.resolve('one'));
    expect(result.current).toMatchObject({ status: 'ready', data: 'one' });

    act(() => result.current.reload());
    expect(result.current).toMatchObject({ status: 'loading', data: 'one' });
    unmount();
    expect(signals.at(-1)!.aborted).toBe(true);
  });

  it('tells a 404 (notfound) from other failures (failed, logged)', async () => {
    const consoleError = spyConsoleError();
    const notFound = renderHook(() => useResource('a', () => Promise.reject(new ApiError(404, null)), 'a thing'));
    await waitFor(() => expect(notFound.result.current.status).toBe('notfound'));
    expect(consoleError).not.toHaveBeenCalled();
    const failed = renderHook(() => useResource('b', () => Promise.reject(new ApiError(500, null)), 'a thing'));
    await waitFor(() => expect(failed.result.current.status).toBe('failed'));
    expect(consoleError).toHaveBeenCalledWith('Could not load a thing', expect.any(ApiError));
  });

  it('loads again, without the old data, when the key changes', async () => {
    const { result, rerender } = renderHook(
      ({ id }) => useResource(`item-${id}`, async () => `data ${id}`, 'an item'),
      {
        initialProps: { id: 1 },
      },
    );
    await waitFor(() => expect(result.current.data).toBe('data 1'));
    rerender({ id: 2 });
    expect(result.current).toMatchObject({ status: 'loading', data: undefined });
    await waitFor(() => expect(result.current.data).toBe('data 2'));
  });
});
