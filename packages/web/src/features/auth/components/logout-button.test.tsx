import { apiPaths, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { headerOf, jsonResponse, mockFetch, renderRoute, signedIn, spyConsoleError } from '../../../../test/helpers';
import LogoutJwtRoute from '@/app/routes/logout-jwt';
import LogoutTokenRoute from '@/app/routes/logout-token';
import { getAccessToken } from '@/lib/auth';

describe('logout pages', () => {
  beforeEach(() => signedIn('the-refresh', 'the-access'));

  it('token style: one Logout button; POSTs with the Token header and no body, forgets the session, goes home', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { detail: 'Successfully logged out.' }));
    const { user } = renderRoute(<LogoutTokenRoute />, { path: '/logout_token' });
    expect(screen.getAllByRole('button')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(apiPaths.logout);
    expect(init?.method).toBe('POST');
    expect(headerOf(init, 'Authorization')).toBe('Token the-refresh');
    expect(init?.body).toBeUndefined();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
  });

  it('token style: a failed call still clears the session, is only logged, and does not refresh', async () => {
    const consoleError = spyConsoleError();
    const fetchMock = mockFetch(() => jsonResponse(401, { detail: 'bad', code: 'token_not_valid' }));
    const { user } = renderRoute(<LogoutTokenRoute />, { path: '/logout_token' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Token logout failed', expect.objectContaining({ status: 401 })),
    );
  });

  it('forgets the session and goes home at once, while the call still runs (a hung server, a closed tab)', async () => {
    const fetchMock = mockFetch(() => new Promise<Response>(() => {}));
    const { user } = renderRoute(<LogoutTokenRoute />, { path: '/logout_token' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(apiPaths.logout);
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect(headerOf(init, 'Authorization')).toBe('Token the-refresh');
  });

  it('JWT style: POSTs {refresh}, and clears the session even when the server fails', async () => {
    spyConsoleError();
    const fetchMock = mockFetch(() => jsonResponse(500, { detail: 'A server error occurred.' }));
    const { user } = renderRoute(<LogoutJwtRoute />, { path: '/logout_jwt' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/$/);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(apiPaths.jwtLogout);
    expect(JSON.parse(String(init?.body))).toEqual({ refresh: 'the-refresh' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});
