import { appRoutes, texts, TOKEN_STORAGE_KEY } from '@hello/contract';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '@/app';
import { clearAuth, setAccessToken, setUserEmail, storeRefreshToken } from '@/lib/auth';
import { jsonResponse, mockFetch, spyConsoleError } from './helpers';

vi.mock('pdfjs-dist', () => ({
  GlobalWorkerOptions: {},
  getDocument: () => ({ promise: new Promise(() => {}), destroy: () => {} }),
}));
vi.mock('pdfjs-dist/build/pdf.worker.min.mjs?url', () => ({ default: '/worker.mjs' }));

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

describe('the app', () => {
  afterEach(() => clearAuth());

  it('shows the header Hello all! and the welcome heading on the home page', () => {
    renderAt('/');
    expect(screen.getByRole('link', { name: texts.header })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome!' })).toBeInTheDocument();
  });

  it('shows the 404 text for any path outside the table', () => {
    renderAt('/no/such/page');
    expect(screen.getByText(texts.notFound)).toBeInTheDocument();
    expect(texts.notFound).toContain('\u2013');
    expect(screen.getByRole('link', { name: texts.header })).toBeInTheDocument();
  });

  it('links every page of the table from the navigation, signed out or in, except the steps of mailed links and account deletion', () => {
    const menuHrefs = () =>
      within(screen.getByRole('navigation', { name: 'Main' }))
        .getAllByRole('link')
        .map((link) => link.getAttribute('href'));
    renderAt('/');
    const signedOut = menuHrefs();
    cleanup();
    storeRefreshToken('r');
    setAccessToken('acc'); // in memory, so nothing is exchanged
    setUserEmail('ann@example.com'); // known, so the header asks nobody
    renderAt('/');
    const signedIn = menuHrefs();
    // Pages of one item (/news/:id) are reached from the lists, not from the menu; the pages a mailed
    // link opens from the mail; deleting the account from the profile page, not one tap from the menu.
    const offMenu: string[] = [
      appRoutes.resetPasswordRequestConfirmed,
      appRoutes.resetNewPassword,
      appRoutes.confirmEmail,
      appRoutes.deleteAccount,
    ];
    const expected = Object.values(appRoutes).filter((path) => !offMenu.includes(path) && !path.includes(':'));
    expect(new Set([...signedOut, ...signedIn])).toEqual(new Set(expected));
    expect(signedOut).toContain(appRoutes.news);
    expect(signedOut).toContain(appRoutes.login);
    expect(signedOut).not.toContain(appRoutes.userProfile);
    expect(signedIn).toContain(appRoutes.userProfile);
    expect(signedIn).not.toContain(appRoutes.login);
  });

  // A route with an id is visited with one (`/news/:id` → `/news/7`).
  it.each(Object.values(appRoutes).map((route) => route.replace(':id', '7')))(
    'renders %s as a page of its own, not the 404 page',
    async (path) => {
      spyConsoleError();
      mockFetch(() => jsonResponse(404, { detail: 'Not found.' }));
      renderAt(path);
      await waitFor(() =>
        expect(screen.queryByText('Loading ...', { selector: '.route-loading *' })).not.toBeInTheDocument(),
      );
      expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(screen.queryByText(texts.notFound)).not.toBeInTheDocument();
    },
  );

  it.each(['/news/abc', '/news/07', '/news/0/edit', '/news/1.5', '/news/7/', '/news/7/edit/more', '/news/12345678901'])(
    'shows the 404 page for %s, whose id is not one the server makes',
    async (path) => {
      const fetchMock = mockFetch(() => jsonResponse(200, {}));
      renderAt(path);
      expect(await screen.findByRole('heading', { level: 1, name: texts.notFound })).toBeInTheDocument();
      expect(fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/v1/localnews/'))).toEqual([]);
    },
  );

  it('sends a user whose refresh token has expired from a page that needs auth to /login, remembering the page', async () => {
    clearAuth();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'expired');
    spyConsoleError();
    mockFetch(() => jsonResponse(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' }));
    renderAt('/userprofile');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(window.location.search).toBe('?next=%2Fuserprofile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});
