import { StrictMode } from 'react';
import { apiPaths, texts } from '@hello/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  callsTo,
  deferred,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  spyConsoleError,
} from '../../../test/helpers';
import { clearAuth, getAuthState, setUserEmail, storeRefreshToken } from '@/lib/auth';
import ConfirmEmailRoute from './confirm-email';

// Each test uses its own token: the page posts a token once per page load (module state).
const open = (token: string | null) =>
  renderRoute(
    <StrictMode>
      <ConfirmEmailRoute />
    </StrictMode>,
    { path: '/confirmemail', entry: token === null ? '/confirmemail' : `/confirmemail?token=${token}` },
  );

describe('/confirmemail', () => {
  beforeEach(() => clearAuth());

  it('posts the token once, even under StrictMode, anonymously, then says the address has changed', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    open('tok-ok');
    expect(screen.getByText(texts.readingData)).toBeInTheDocument();
    answer.resolve(jsonResponse(200, { status: 'OK' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your e-mail address has been changed.');
    expect(within(alert).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    const calls = callsTo(fetchMock, apiPaths.confirmEmail);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1].method).toBe('POST');
    expect(headerOf(calls[0]?.[1], 'Authorization')).toBeUndefined();
    expect(JSON.parse(String(calls[0]?.[1].body))).toEqual({ token: 'tok-ok' });
  });

  it('links a signed-in user to the profile and forgets the old address kept in memory', async () => {
    storeRefreshToken('r');
    setUserEmail('old@example.com');
    mockFetch(() => jsonResponse(200, { status: 'OK' }));
    open('tok-signed-in');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', '/userprofile');
    expect(getAuthState().email).toBeNull();
  });

  it('says the token is invalid when the server knows no such token (404)', async () => {
    mockFetch(() => jsonResponse(404, { status: 'notfound' }));
    open('tok-used');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(texts.tokenInvalid);
    expect(within(alert).getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute('href', '/changeemail');
  });

  it('says the token is invalid without asking the server when the link has none', () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { status: 'OK' }));
    open(null);
    expect(screen.getByRole('alert')).toHaveTextContent(texts.tokenInvalid);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells a failure apart from an invalid token', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(503));
    open('tok-outage');
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be confirmed right now');
  });
});
