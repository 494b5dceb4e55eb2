import { apiPaths, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { deferred, jsonResponse, mockFetch, renderRoute, spyConsoleError } from '../../../../test/helpers';
import LoginRoute from '@/app/routes/login';
import { clearAuth, getAccessToken } from '@/lib/auth';
import { LoginForm } from './login-form';

const buttons = () => [screen.getByRole('button', { name: 'Submit' }), screen.getByRole('button', { name: 'Reset' })];

describe('login form', () => {
  beforeEach(() => clearAuth());

  it('names its controls as their fields on the wire and binds their labels', () => {
    renderRoute(<LoginForm onSuccess={() => {}} />);
    expect(screen.getByLabelText('Email')).toHaveAttribute('name', 'email');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('name', 'password');
  });

  it('shows Required only once a field has been touched', async () => {
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'a');
    await user.clear(screen.getByLabelText('Email'));
    // Invalid now, but not yet left: no message.
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    await user.tab(); // leaves Email: now touched
    expect(screen.getAllByText('Required')).toHaveLength(1);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('Password')).not.toHaveAccessibleDescription();
  });

  it('treats a submit attempt as touching every field', async () => {
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'b@example.com');
    await user.click(buttons()[0]!);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('disables Submit and Reset while unchanged and while submitting', async () => {
    const answer = deferred<Response>();
    mockFetch(() => answer.promise);
    const onSuccess = vi.fn();
    const { user } = renderRoute(<LoginForm onSuccess={onSuccess} />);
    for (const button of buttons()) expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    for (const button of buttons()) expect(button).not.toHaveAttribute('aria-disabled');
    await user.click(buttons()[0]!);
    for (const button of buttons()) expect(button).toHaveAttribute('aria-disabled', 'true');
    answer.resolve(jsonResponse(200, { access: 'acc', refresh: 'ref' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('ref');
    expect(getAccessToken()).toBe('acc');
  });

  it('Reset puts the form back to empty', async () => {
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.click(buttons()[1]!);
    expect(screen.getByLabelText('Email')).toHaveValue('');
    for (const button of buttons()) expect(button).toHaveAttribute('aria-disabled', 'true');
  });

  it('shows the server messages beside their fields and in one alert, and logs the failure', async () => {
    const consoleError = spyConsoleError();
    mockFetch(() =>
      jsonResponse(400, {
        email: ['Enter a valid email address.'],
        non_field_errors: ['Unable to log in with provided credentials.'],
      }),
    );
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(buttons()[0]!);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unable to log in with provided credentials.')).toBeInTheDocument();
    expect(within(alert).getByText('Email: Enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Enter a valid email address.');
    expect(consoleError).toHaveBeenCalled();
  });

  it('shows a 401 {detail} in the alert', async () => {
    spyConsoleError();
    // jsdom has no layout, hence no scrollIntoView.
    const scrolled = vi.fn();
    Object.defineProperty(Element.prototype, 'scrollIntoView', { configurable: true, value: scrolled });
    onTestFinished(() => void delete (Element.prototype as Partial<Element>).scrollIntoView);
    mockFetch(() => jsonResponse(401, { detail: 'No active account found with the given credentials' }));
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-pass');
    await user.click(buttons()[0]!);
    expect(await screen.findByRole('alert')).toHaveTextContent('No active account found with the given credentials');
    // The alert pushed the form down: the button that kept focus is brought back into view.
    expect(buttons()[0]).toHaveFocus();
    expect(scrolled.mock.contexts).toContain(buttons()[0]);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

describe('login page', () => {
  beforeEach(() => {
    clearAuth();
    mockFetch((url) => (url === apiPaths.token ? jsonResponse(200, { access: 'a', refresh: 'r' }) : jsonResponse(404)));
  });

  async function logIn(user: ReturnType<typeof renderRoute>['user']) {
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
  }

  it('returns to the previous location passed as router state', async () => {
    const { user } = renderRoute(<LoginRoute />, { path: '/login', state: { from: '/userprofile' } });
    await logIn(user);
    expect(await screen.findByTestId('location')).toHaveTextContent('/userprofile');
  });

  it('returns to the ?next= location after a reload lost the router state', async () => {
    const { user } = renderRoute(<LoginRoute />, { path: '/login', entry: '/login?next=%2Faddlocalnews' });
    await logIn(user);
    expect(await screen.findByTestId('location')).toHaveTextContent('/addlocalnews');
  });

  it('goes to /localnews when no previous location was passed, and ignores foreign targets', async () => {
    const { user } = renderRoute(<LoginRoute />, { path: '/login', entry: '/login?next=%2F%2Fevil.example' });
    await logIn(user);
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/localnews$/);
  });
});
