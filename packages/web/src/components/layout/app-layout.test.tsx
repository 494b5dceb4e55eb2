import { useEffect, useRef, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths, appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { clearAuth, setAccessToken, setUserEmail, storeRefreshToken } from '@/lib/auth';
import { jsonResponse, mockFetch } from '../../../test/helpers';
import { AppLayout } from './app-layout';

/** A page that puts focus on its own field when it opens, as a page may on purpose. */
function FocusingPage() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <Page title="Log in">
      <label>
        E-mail <input ref={field} name="email" />
      </label>
    </Page>
  );
}

/** A page whose Retry gives way to what it loads, as a failed load's does. */
function RetryPage() {
  const [loaded, setLoaded] = useState(false);
  return (
    <Page title="Your devices">{loaded ? <p>Loaded.</p> : <button onClick={() => setLoaded(true)}>Retry</button>}</Page>
  );
}

/** A page whose heading arrives later, as a lazily loaded route's does. */
function LatePage() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), 50);
    return () => clearTimeout(timer);
  }, []);
  return ready ? <Page title="Local news" /> : <p>Loading ...</p>;
}

function renderApp(at: string) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path={appRoutes.home} element={<Page title="Welcome" />} />
          <Route path={appRoutes.about} element={<Page title="About" />} />
          <Route path={appRoutes.login} element={<FocusingPage />} />
          <Route path={appRoutes.localNews} element={<LatePage />} />
          <Route path={appRoutes.sessions} element={<RetryPage />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });
/** Lets what the header starts after rendering (its chunk's import, the request) happen first. */
const settle = () =>
  act(async () => {
    await import('@/lib/current-user');
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

describe('focus after a route change', () => {
  it('leaves focus alone on the first load', () => {
    renderApp(appRoutes.home);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome' })).not.toHaveFocus();
    expect(document.body).toHaveFocus();
  });

  it("moves focus to the new page's h1 after following a link", async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.home);
    await user.click(screen.getByRole('link', { name: 'About' }));
    const heading = screen.getByRole('heading', { level: 1, name: 'About' });
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('waits for a heading that arrives later', async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.home);
    await user.click(screen.getByRole('link', { name: 'Local news' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Local news' });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('leaves focus where the user took it while a late heading was on its way', async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.home);
    await user.click(screen.getByRole('link', { name: 'Local news' }));
    screen.getByRole('link', { name: 'About' }).focus(); // tabbed on meanwhile
    await screen.findByRole('heading', { level: 1, name: 'Local news' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('link', { name: 'About' })).toHaveFocus();
  });

  it('keeps the focus a page gave one of its own controls', async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.home);
    await user.click(screen.getByRole('link', { name: 'Login' }));
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toHaveFocus();
    expect(nav()).toBeInTheDocument();
  });
});

describe('focus when its element leaves the page', () => {
  it("goes to the page's h1, not to <body>", async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.sessions);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByText('Loaded.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Your devices' })).toHaveFocus());
  });
});

describe('the menu', () => {
  it('closes on Escape from one of its links, with focus back on its toggle', async () => {
    const user = userEvent.setup();
    renderApp(appRoutes.home);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    screen.getByRole('link', { name: 'About' }).focus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});

describe('the header and the menu follow the session', () => {
  afterEach(() => clearAuth());
  const accountLinks = () =>
    within(screen.getByRole('list', { name: 'Account' }))
      .getAllByRole('link')
      .map((link) => link.textContent);

  it('offers Login, Register and Reset password to a visitor who is not signed in, asking nobody', async () => {
    const fetchMock = mockFetch(() => jsonResponse(500));
    renderApp(appRoutes.home);
    expect(screen.getByText('Not signed in')).toBeInTheDocument();
    expect(accountLinks()).toEqual(['Login', 'Register', 'Reset password']);
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("names the user after a reload (the stored token exchanged, then the profile asked once) and lists the account's pages", async () => {
    storeRefreshToken('r');
    const fetchMock = mockFetch((url) =>
      url === apiPaths.tokenRefresh
        ? jsonResponse(200, { access: 'acc' })
        : jsonResponse(200, { email: 'ann@example.com' }),
    );
    renderApp(appRoutes.home);
    expect(screen.getByText('Signed in')).toBeInTheDocument();
    expect(await screen.findByText('Signed in as ann@example.com')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([apiPaths.tokenRefresh, apiPaths.userProfile]);
    expect(accountLinks()).toEqual([
      'Profile',
      'Devices',
      'Change password',
      'Change e-mail',
      'Two-step sign-in',
      'Logout (token)',
      'Logout (JWT)',
    ]);
  });

  it('asks nobody when the e-mail is already known (after login)', async () => {
    storeRefreshToken('r');
    setAccessToken('acc');
    setUserEmail('ann@example.com');
    const fetchMock = mockFetch(() => jsonResponse(500));
    renderApp(appRoutes.home);
    expect(screen.getByText('Signed in as ann@example.com')).toBeInTheDocument();
    await settle();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('swaps the account links when the user signs out', async () => {
    storeRefreshToken('r');
    setUserEmail('ann@example.com');
    renderApp(appRoutes.home);
    expect(accountLinks()).toContain('Profile');
    act(() => clearAuth());
    await waitFor(() => expect(accountLinks()).toEqual(['Login', 'Register', 'Reset password']));
    expect(screen.getByText('Not signed in')).toBeInTheDocument();
  });
});
