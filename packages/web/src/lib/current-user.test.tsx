import { apiPaths } from '@hello/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch, spyConsoleError } from '../../test/helpers';
import { clearAuth, getAuthState, setAccessToken, setUserEmail, storeRefreshToken } from './auth';
import { findCurrentUserEmail, useCurrentUserEmail, type LookupFailed } from './current-user';

describe('useCurrentUserEmail', () => {
  beforeEach(() => clearAuth());

  it('answers from memory when the e-mail is known, asking nobody', () => {
    storeRefreshToken('r');
    setUserEmail('me@example.com');
    const fetchMock = mockFetch(() => jsonResponse(500));
    const { result } = renderHook(() => useCurrentUserEmail());
    expect(result.current).toBe('me@example.com');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is null with no stored refresh token, asking nobody', () => {
    const fetchMock = mockFetch(() => jsonResponse(500));
    const { result } = renderHook(() => useCurrentUserEmail());
    expect(result.current).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loads the profile once for every component that asks, and remembers the e-mail', async () => {
    storeRefreshToken('r');
    setAccessToken('acc');
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    const first = renderHook(() => useCurrentUserEmail());
    const second = renderHook(() => useCurrentUserEmail());
    expect(first.result.current).toBeUndefined();
    answer.resolve(jsonResponse(200, { email: 'me@example.com' }));
    await waitFor(() => expect(first.result.current).toBe('me@example.com'));
    expect(second.result.current).toBe('me@example.com');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([apiPaths.userProfile]);
    expect(getAuthState().email).toBe('me@example.com');
  });

  it('asks again when the e-mail is forgotten while the answer is on its way (a confirmed change)', async () => {
    storeRefreshToken('r');
    setAccessToken('acc');
    const first = deferred<Response>();
    const answers = [first.promise, Promise.resolve(jsonResponse(200, { email: 'new@example.com' }))];
    const fetchMock = mockFetch(() => answers.shift()!);
    const { result } = renderHook(() => useCurrentUserEmail());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    setUserEmail(null); // the change is confirmed after the first question was asked
    first.resolve(jsonResponse(200, { email: 'old@example.com' }));
    await waitFor(() => expect(result.current).toBe('new@example.com'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(getAuthState().email).toBe('new@example.com');
  });

  it('asks nobody when the e-mail is learned before it would ask (the profile page loaded it first)', async () => {
    storeRefreshToken('r');
    setAccessToken('acc');
    const fetchMock = mockFetch(() => jsonResponse(200, { email: 'late@example.com' }));
    setUserEmail('me@example.com'); // learned while the header's code was still loading
    expect(await findCurrentUserEmail()).toBe('me@example.com');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells a lookup that failed (5xx, network) from nobody signed in, and asks again on retry', async () => {
    spyConsoleError();
    storeRefreshToken('r');
    setAccessToken('acc');
    let calls = 0;
    const fetchMock = mockFetch(() =>
      ++calls === 1 ? jsonResponse(503) : jsonResponse(200, { email: 'me@example.com' }),
    );
    const { result } = renderHook(() => useCurrentUserEmail());
    await waitFor(() => expect(result.current).toEqual({ retry: expect.any(Function) }));
    act(() => (result.current as LookupFailed).retry());
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(result.current).toBe('me@example.com'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not known (undefined), not the last lookup’s failure, once signed in again while the new lookup runs', async () => {
    spyConsoleError();
    storeRefreshToken('r1');
    setAccessToken('a1');
    const second = deferred<Response>();
    let calls = 0;
    mockFetch(() => (++calls === 1 ? jsonResponse(503) : second.promise));
    const { result } = renderHook(() => useCurrentUserEmail());
    await waitFor(() => expect(result.current).toEqual({ retry: expect.any(Function) }));
    act(() => clearAuth()); // logged out, in another tab
    expect(result.current).toBeNull();
    act(() => {
      storeRefreshToken('r2'); // and in again
      setAccessToken('a2');
    });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(calls).toBe(2));
    expect(result.current).toBeUndefined();
    second.resolve(jsonResponse(200, { email: 'me@example.com' }));
    await waitFor(() => expect(result.current).toBe('me@example.com'));
  });

  it('is null when the profile names nobody', async () => {
    storeRefreshToken('r');
    setAccessToken('acc');
    mockFetch(() => jsonResponse(200, { email: '' }));
    const { result } = renderHook(() => useCurrentUserEmail());
    await waitFor(() => expect(result.current).toBeNull());
  });
});
