import { apiPaths, TOKEN_STORAGE_KEY } from '@hello/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { callsTo, deferred, headerOf, jsonResponse, mockFetch } from '../../test/helpers';
import { apiJson, refreshAccessToken, restoreSession } from './api-client';
import { clearAuth, getAccessToken, setAccessToken, storeRefreshToken } from './auth';
import { setLoginNavigator, type LoginNavigator } from './auth-redirect';
import { ApiError, AuthLostError } from './errors';

const expired = () =>
  jsonResponse(401, { detail: 'Given token not valid for any token type', code: 'token_not_valid' });
const NEWS = apiPaths.localNews;
const REFRESH = apiPaths.tokenRefresh;

describe('api client', () => {
  let navigate: ReturnType<typeof vi.fn<LoginNavigator>>;
  let unregister: () => void;

  beforeEach(() => {
    clearAuth();
    navigate = vi.fn<LoginNavigator>();
    unregister = setLoginNavigator(navigate);
    window.history.replaceState(null, '', '/localnews?page=2');
  });
  afterEach(() => unregister());

  it('sends Bearer <access> for bearer calls and Token <refresh token> for token calls', async () => {
    storeRefreshToken('stored-refresh');
    setAccessToken('access-1');
    const fetchMock = mockFetch(() => jsonResponse(200, []));
    await apiJson(NEWS, { auth: 'bearer' });
    await apiJson(apiPaths.localNewsNew, { method: 'POST', auth: 'token' });
    await apiJson(apiPaths.token, { method: 'POST', json: {} });
    expect(headerOf(fetchMock.mock.calls[0]?.[1], 'Authorization')).toBe('Bearer access-1');
    expect(headerOf(fetchMock.mock.calls[1]?.[1], 'Authorization')).toBe('Token stored-refresh');
    expect(headerOf(fetchMock.mock.calls[2]?.[1], 'Authorization')).toBeUndefined();
  });

  it('exchanges the refresh token first when a bearer call has no access token in memory', async () => {
    storeRefreshToken('stored-refresh');
    const fetchMock = mockFetch((url, init) => {
      if (url === REFRESH) {
        expect(JSON.parse(String(init.body))).toEqual({ refresh: 'stored-refresh' });
        return jsonResponse(200, { access: 'fresh' });
      }
      return jsonResponse(200, [{ title: 'x' }]);
    });
    await expect(apiJson(NEWS, { auth: 'bearer' })).resolves.toEqual([{ title: 'x' }]);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([REFRESH, NEWS]);
    expect(headerOf(callsTo(fetchMock, NEWS)[0]?.[1], 'Authorization')).toBe('Bearer fresh');
    expect(getAccessToken()).toBe('fresh');
  });

  it('on 401 token_not_valid refreshes once and retries once with the new access token', async () => {
    storeRefreshToken('stored-refresh');
    setAccessToken('old');
    const fetchMock = mockFetch((url, init) => {
      if (url === REFRESH) return jsonResponse(200, { access: 'new' });
      return headerOf(init, 'Authorization') === 'Bearer new' ? jsonResponse(200, ['ok']) : expired();
    });
    await expect(apiJson(NEWS, { auth: 'bearer' })).resolves.toEqual(['ok']);
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
    expect(callsTo(fetchMock, NEWS).map(([, init]) => headerOf(init, 'Authorization'))).toEqual([
      'Bearer old',
      'Bearer new',
    ]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shares one refresh between two concurrent requests that both got 401', async () => {
    storeRefreshToken('stored-refresh');
    setAccessToken('old');
    const refreshAnswer = deferred<Response>();
    const fetchMock = mockFetch((url, init) => {
      if (url === REFRESH) return refreshAnswer.promise;
      return headerOf(init, 'Authorization') === 'Bearer new' ? jsonResponse(200, { url }) : expired();
    });
    const first = apiJson(NEWS, { auth: 'bearer' });
    const second = apiJson(apiPaths.userProfile, { auth: 'bearer' });
    // Let both 401s arrive and both callers wait on the exchange before it answers.
    await waitFor(() => expect(callsTo(fetchMock, REFRESH)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    refreshAnswer.resolve(jsonResponse(200, { access: 'new' }));
    await expect(first).resolves.toEqual({ url: NEWS });
    await expect(second).resolves.toEqual({ url: apiPaths.userProfile });
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('when the refresh fails: clears the refresh token and access, and goes to /login with the previous location', async () => {
    storeRefreshToken('stale');
    setAccessToken('old');
    mockFetch((url) => (url === REFRESH ? expired() : expired()));
    await expect(apiJson(NEWS, { auth: 'bearer' })).rejects.toBeInstanceOf(AuthLostError);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login?next=%2Flocalnews%3Fpage%3D2', { from: '/localnews?page=2' });
  });

  it('redirects only once when concurrent requests lose the session together', async () => {
    storeRefreshToken('stale');
    setAccessToken('old');
    mockFetch(() => expired());
    const results = await Promise.allSettled([apiJson(NEWS, { auth: 'bearer' }), apiJson(NEWS, { auth: 'bearer' })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('does not loop: when the retried call fails again it throws after one refresh', async () => {
    storeRefreshToken('stored-refresh');
    setAccessToken('old');
    const fetchMock = mockFetch((url) => (url === REFRESH ? jsonResponse(200, { access: 'new' }) : expired()));
    const error = await apiJson(NEWS, { auth: 'bearer' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
    expect(callsTo(fetchMock, NEWS)).toHaveLength(2);
  });

  it('with no stored refresh token, an authenticated call goes to /login without calling the API', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, []));
    await expect(apiJson(NEWS, { auth: 'bearer' })).rejects.toBeInstanceOf(AuthLostError);
    await expect(apiJson(apiPaths.localNewsNew, { method: 'POST', auth: 'token' })).rejects.toBeInstanceOf(
      AuthLostError,
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/login?next=%2Flocalnews%3Fpage%3D2', { from: '/localnews?page=2' });
  });

  it('does not refresh for a 401 without the token_not_valid code', async () => {
    storeRefreshToken('stored-refresh');
    setAccessToken('access');
    const fetchMock = mockFetch(() => jsonResponse(401, { detail: 'Authentication credentials were not provided.' }));
    await expect(apiJson(NEWS, { auth: 'bearer' })).rejects.toMatchObject({ status: 401 });
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(0);
  });

  it('keeps the session when the refresh call meets a server error rather than a refusal', async () => {
    storeRefreshToken('stored-refresh');
    mockFetch(() => jsonResponse(503, { detail: 'down' }));
    await expect(refreshAccessToken()).rejects.toMatchObject({ status: 503 });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('stored-refresh');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('restores the session on load, and stays on pages where /login would defeat the page', async () => {
    window.history.replaceState(null, '', '/resetnewpassword?token=t');
    storeRefreshToken('stale');
    const fetchMock = mockFetch(() => expired());
    restoreSession();
    await waitFor(() => expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull());
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('reads Retry-After as whole seconds only', async () => {
    setAccessToken('a');
    storeRefreshToken('r');
    const said = async (value: string) => {
      mockFetch(() => jsonResponse(429, { detail: 'slow down' }, { 'Retry-After': value }));
      const error: unknown = await apiJson(NEWS, { auth: 'bearer' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      return (error as ApiError).retryAfter;
    };
    expect(await said('30')).toBe(30);
    expect(await said('1.5')).toBeUndefined();
    expect(await said('-5')).toBeUndefined();
    expect(await said('0x10')).toBeUndefined();
    expect(await said('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
  });

  it('drops an access token whose refresh token another tab replaced meanwhile, and exchanges the new one', async () => {
    storeRefreshToken('first');
    const answer = deferred<Response>();
    const fetchMock = mockFetch((url, init) => {
      const { refresh } = JSON.parse(String(init.body)) as { refresh: string };
      if (refresh === 'first') return answer.promise;
      return jsonResponse(200, { access: 'for-second' });
    });
    const exchange = refreshAccessToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'second'); // another tab logged in as someone else
    answer.resolve(jsonResponse(200, { access: 'for-first' }));
    await expect(exchange).resolves.toBe('for-second');
    expect(getAccessToken()).toBe('for-second');
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(2);
  });

  it('keeps the session logged in meanwhile when the old token is refused, and exchanges the new one', async () => {
    storeRefreshToken('stale');
    const answer = deferred<Response>();
    const fetchMock = mockFetch((url, init) => {
      const { refresh } = JSON.parse(String(init.body)) as { refresh: string };
      if (refresh === 'stale') return answer.promise;
      return jsonResponse(200, { access: 'for-new' });
    });
    const exchange = refreshAccessToken();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'new'); // a login (here or in another tab) while it ran
    answer.resolve(jsonResponse(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' }));
    await expect(exchange).resolves.toBe('for-new');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new');
    expect(getAccessToken()).toBe('for-new');
    expect(navigate).not.toHaveBeenCalled();
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(2);
  });

  it('keeps nothing and goes nowhere when another tab logs out while the token is exchanged', async () => {
    storeRefreshToken('first');
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    const exchange = refreshAccessToken();
    localStorage.removeItem(TOKEN_STORAGE_KEY); // another tab logged out
    answer.resolve(jsonResponse(200, { access: 'for-first' }));
    await expect(exchange).rejects.toBeInstanceOf(AuthLostError);
    expect(getAccessToken()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(1);
  });
});
