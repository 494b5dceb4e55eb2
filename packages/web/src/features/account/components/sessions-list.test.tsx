import { apiPaths, TOKEN_STORAGE_KEY, userSessionPath, type SessionInfo } from '@hello/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
} from '../../../../test/helpers';
import { SessionsList } from './sessions-list';
import { setAccessToken } from '@/lib/auth';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const session = (id: string, user_agent: string, current = false): SessionInfo => ({
  id,
  user_agent,
  current,
  ip: '203.0.113.x',
  created_at: '2026-03-01T09:00:00.000Z',
  last_used_at: '2026-03-02T10:30:00.000Z',
});
const here = session('s-here', CHROME_LINUX, true);
const phone = session('s-phone', SAFARI_IPHONE);
const laptop = session('s-laptop', FIREFOX_WINDOWS);

/** A server holding `live` sessions: GET lists them, DELETE and revoke-others end them. */
function fakeServer(
  initial: SessionInfo[],
  overrides: Partial<Record<string, () => Response | Promise<Response>>> = {},
) {
  let live = [...initial];
  return mockFetch((url, init) => {
    const method = init.method ?? 'GET';
    const override = overrides[`${method} ${url}`];
    if (override) return override();
    if (url === apiPaths.userSessions && method === 'GET') return jsonResponse(200, live);
    if (url === apiPaths.revokeOtherSessions && method === 'POST') {
      const revoked = live.filter((s) => !s.current).length;
      live = live.filter((s) => s.current);
      return jsonResponse(200, { revoked });
    }
    const ended = live.find((s) => method === 'DELETE' && url === userSessionPath(s.id));
    if (ended) {
      live = live.filter((s) => s !== ended);
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { detail: 'Not found.' });
  });
}

const card = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name}`) });
const status = () => screen.getAllByRole('status').find((el) => el.classList.contains('sessions-status'))!;

describe('sessions list', () => {
  beforeEach(() => signedIn());

  it('lists every device with a readable name, the raw user agent, address and times; this one marked', async () => {
    const fetchMock = fakeServer([here, phone, laptop]);
    renderRoute(<SessionsList onSignedOut={() => {}} />);
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(headerOf(callsTo(fetchMock, apiPaths.userSessions)[0]?.[1], 'Authorization')).toBe('Bearer acc');

    const mine = card('Chrome on Linux');
    expect(within(mine).getByText('This device')).toBeInTheDocument();
    expect(within(mine).getByText(CHROME_LINUX)).toBeInTheDocument();
    expect(within(mine).getByText('203.0.113.x')).toBeInTheDocument();
    expect(within(mine).getByText('Signed in')).toBeInTheDocument();
    expect(within(mine).getByText('Last active')).toBeInTheDocument();
    expect(within(card('Safari on iPhone')).queryByText('This device')).not.toBeInTheDocument();
    expect(card('Firefox on Windows')).toBeInTheDocument();
  });

  it('logs out another device, says so politely and loads the list again', async () => {
    const fetchMock = fakeServer([here, phone, laptop]);
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    await user.click(within(card('Safari on iPhone')).getByRole('button', { name: 'Log out' }));

    await waitFor(() => expect(status()).toHaveTextContent('Logged out Safari on iPhone.'));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: /^Safari on iPhone/ })).not.toBeInTheDocument());
    expect(callsTo(fetchMock, userSessionPath('s-phone'))[0]?.[1].method).toBe('DELETE');
    expect(callsTo(fetchMock, apiPaths.userSessions)).toHaveLength(2);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('r');
  });

  it('says when the device had been logged out already (404)', async () => {
    fakeServer([here, phone], {
      [`DELETE ${userSessionPath('s-phone')}`]: () => jsonResponse(404, { detail: 'Not found.' }),
    });
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    await user.click(within(card('Safari on iPhone')).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(status()).toHaveTextContent('Safari on iPhone was already logged out.'));
  });

  it('says why an action failed', async () => {
    spyConsoleError();
    fakeServer([here, phone], { [`DELETE ${userSessionPath('s-phone')}`]: () => jsonResponse(500) });
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    await user.click(within(card('Safari on iPhone')).getByRole('button', { name: 'Log out' }));
    await waitFor(() =>
      expect(status()).toHaveTextContent(
        'Could not log out Safari on iPhone: The server had a problem. Please try again shortly.',
      ),
    );
  });

  it('asks before logging out everywhere else; Cancel sends nothing and returns focus', async () => {
    const fetchMock = fakeServer([here, phone, laptop]);
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    const ask = screen.getByRole('button', { name: 'Log out everywhere else' });
    await user.click(ask);
    const question = screen.getByRole('group', { name: /Log out 2 other sessions\?/ });
    expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(callsTo(fetchMock, apiPaths.revokeOtherSessions)).toHaveLength(0);

    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /other sessions\?/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log out everywhere else' })).toHaveFocus();
    expect(callsTo(fetchMock, apiPaths.revokeOtherSessions)).toHaveLength(0);
  });

  it('logs out everywhere else once confirmed, leaving only this device', async () => {
    const fetchMock = fakeServer([here, phone, laptop]);
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    await user.click(screen.getByRole('button', { name: 'Log out everywhere else' }));
    await user.click(screen.getByRole('button', { name: 'Yes, log them out' }));

    await waitFor(() => expect(status()).toHaveTextContent('Logged out 2 other sessions.'));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText('No other device is signed in.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out everywhere else' })).not.toBeInTheDocument();
    const [call] = callsTo(fetchMock, apiPaths.revokeOtherSessions);
    expect(call?.[1].method).toBe('POST');
    expect(headerOf(call?.[1], 'Authorization')).toBe('Bearer acc');
  });

  /** 'Log out' on this device's card, the logout call answered by `answer`; once onSignedOut has run. */
  async function logOutThisDevice(answer: () => Response | Promise<Response>, beforeClick = () => {}) {
    const fetchMock = fakeServer([here, phone], { [`POST ${apiPaths.logout}`]: answer });
    const onSignedOut = vi.fn();
    const { user } = renderRoute(<SessionsList onSignedOut={onSignedOut} />);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    beforeClick();
    await user.click(within(card('Chrome on Linux')).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(onSignedOut).toHaveBeenCalled());
    return fetchMock;
  }

  it('logging out this device is a logout with the refresh token: no access token needed, the token forgotten', async () => {
    // The access token dropped (another tab signed in) after the list loaded: the logout does not need one.
    const fetchMock = await logOutThisDevice(
      () => jsonResponse(200, { detail: 'Successfully logged out.' }),
      () => setAccessToken(null),
    );
    const [call] = callsTo(fetchMock, apiPaths.logout);
    expect(call?.[1].method).toBe('POST');
    expect(headerOf(call?.[1], 'Authorization')).toBe('Token r');
    expect(callsTo(fetchMock, apiPaths.tokenRefresh)).toHaveLength(0);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('forgets the token even when the server could not be told', async () => {
    const consoleError = spyConsoleError();
    await logOutThisDevice(() => jsonResponse(503));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        'Could not end this session on the server',
        expect.objectContaining({ status: 503 }),
      ),
    );
  });

  it('forgets the token at once, before the server answers, and lets the call outlive the page', async () => {
    const fetchMock = await logOutThisDevice(() => new Promise<Response>(() => {}));
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    const [call] = callsTo(fetchMock, apiPaths.logout);
    expect(call?.[1]).toMatchObject({ method: 'POST', keepalive: true });
    expect(headerOf(call?.[1], 'Authorization')).toBe('Token r');
  });

  it('says when the list could not be loaded and offers to try again', async () => {
    spyConsoleError();
    let fail = true;
    mockFetch(() => (fail ? jsonResponse(500) : jsonResponse(200, [here])));
    const { user } = renderRoute(<SessionsList onSignedOut={() => {}} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your devices could not be loaded.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: /^Chrome on Linux/ })).toBeInTheDocument();
  });
});
