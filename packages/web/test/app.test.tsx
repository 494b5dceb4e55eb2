import { appRoutes, texts, TOKEN_STORAGE_KEY } from '@hello/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from '@/app';
import { clearAuth } from '@/lib/auth';
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
  it('shows the header Hello all! and the welcome heading on the home page', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1, name: texts.header })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Welcome!' })).toBeInTheDocument();
  });

  it('shows the 404 text for any path outside the table', () => {
    renderAt('/no/such/page');
    expect(screen.getByText(texts.notFound)).toBeInTheDocument();
    expect(texts.notFound).toContain('\u2013');
    expect(screen.getByRole('heading', { level: 1, name: texts.header })).toBeInTheDocument();
  });

  it('links every page of the table from the navigation, except the two steps of the reset flow', () => {
    renderAt('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const hrefs = within(nav).getAllByRole('link').map((link) => link.getAttribute('href'));
    const expected = Object.values(appRoutes).filter(
      (path) => path !== appRoutes.resetPasswordRequestConfirmed && path !== appRoutes.resetNewPassword,
    );
    expect(new Set(hrefs)).toEqual(new Set(expected));
  });

  it.each(Object.values(appRoutes))('renders %s as a page of its own, not the 404 page', async (path) => {
    spyConsoleError();
    mockFetch(() => jsonResponse(404, { detail: 'Not found.' }));
    renderAt(path);
    await waitFor(() => expect(screen.queryByText('Loading ...', { selector: '.route-loading *' })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { level: 2 })).toBeInTheDocument();
    expect(screen.queryByText(texts.notFound)).not.toBeInTheDocument();
  });

  it('sends a user whose stored token has expired from a page that needs auth to /login, remembering the page', async () => {
    clearAuth();
    localStorage.setItem(TOKEN_STORAGE_KEY, 'expired');
    spyConsoleError();
    mockFetch(() => jsonResponse(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' }));
    renderAt('/userprofile');
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(window.location.search).toBe('?next=%2Fuserprofile');
    expect(await screen.findByRole('heading', { level: 2, name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});
