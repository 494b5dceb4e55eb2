import { apiPaths, errorCodes, serverMessages, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, jsonResponse, mockFetch, renderRoute, spyConsoleError } from '../../../../test/helpers';
import LoginRoute from '@/app/routes/login';
import { clearAuth, getAccessToken, getAuthState } from '@/lib/auth';
import { MFA_TOKEN_LIFETIME_MS } from '../utils/two-step-forms';
import { LoginForm } from './login-form';

/** The login's answer for an account with two-step sign-in, then the code step's. */
function twoStepServer(codeAnswer: () => Response = () => jsonResponse(200, { access: 'acc2', refresh: 'ref2' })) {
  return mockFetch((url) => {
    if (url === apiPaths.token) return jsonResponse(200, { mfa_required: true, mfa_token: 'mfa-1' });
    if (url === apiPaths.tokenMfa) return codeAnswer();
    return jsonResponse(404);
  });
}

const mfaInvalid = () => jsonResponse(401, { detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;

async function passwordStep(user: ReturnType<typeof renderRoute>['user']) {
  await user.type(screen.getByLabelText('Email'), 'two@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret-pass');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return screen.findByLabelText('Code from your authenticator app');
}

describe('the login code step', () => {
  beforeEach(() => clearAuth());
  afterEach(() => vi.restoreAllMocks());

  it('asks for the app code on the same page, then stores the tokens as a login does', async () => {
    const fetchMock = twoStepServer();
    const onSuccess = vi.fn();
    const { user } = renderRoute(<LoginForm onSuccess={onSuccess} />);
    const code = await passwordStep(user);
    // Nothing is stored by the password step alone.
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(code).toHaveAttribute('name', 'code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveFocus();
    expect(screen.getByText('two@example.com')).toBeInTheDocument();

    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(body(callsTo(fetchMock, apiPaths.tokenMfa)[0]?.[1])).toEqual({ mfa_token: 'mfa-1', code: '123456' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('ref2');
    expect(getAccessToken()).toBe('acc2');
    expect(getAuthState().email).toBe('two@example.com');
  });

  it('switches to a recovery code, a text field sent as typed', async () => {
    const fetchMock = twoStepServer();
    const onSuccess = vi.fn();
    const { user } = renderRoute(<LoginForm onSuccess={onSuccess} />);
    await user.type(await passwordStep(user), '12');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const code = screen.getByLabelText('Recovery code');
    expect(code).toHaveAttribute('name', 'code');
    expect(code).toHaveAttribute('type', 'text');
    expect(code).not.toHaveAttribute('inputmode');
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
    expect(screen.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
    await user.type(code, 'ABCDE-fghij');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(body(callsTo(fetchMock, apiPaths.tokenMfa)[0]?.[1])).toEqual({ mfa_token: 'mfa-1', code: 'ABCDE-fghij' });
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('ref2');
  });

  it('toggles back from a recovery code to the app code', async () => {
    twoStepServer();
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    await passwordStep(user);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.click(screen.getByRole('button', { name: 'Use the code from your app' }));
    expect(screen.getByLabelText('Code from your authenticator app')).toHaveAttribute('inputmode', 'numeric');
  });

  it('does not call the empty field it focused Required when it is left; Submit waits for a code', async () => {
    twoStepServer();
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    const code = await passwordStep(user);
    await user.tab(); // leaves the field it was given, empty
    expect(screen.queryByText('Required')).not.toBeInTheDocument();
    expect(code).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveAttribute('aria-disabled', 'true');
    await user.type(code, '1');
    expect(screen.getByRole('button', { name: 'Submit' })).not.toHaveAttribute('aria-disabled');
  });

  it("shows the server's message for a refused code, keeps the step and offers to start again", async () => {
    const consoleError = spyConsoleError();
    twoStepServer(mfaInvalid);
    const onSuccess = vi.fn();
    const { user } = renderRoute(<LoginForm onSuccess={onSuccess} />);
    await user.type(await passwordStep(user), '000000');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(serverMessages.mfaInvalid);
    expect(consoleError).toHaveBeenCalled();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(screen.getByLabelText('Code from your authenticator app')).toBeInTheDocument();
    expect(screen.getByText(/more than 5 minutes have passed/i)).toBeInTheDocument();

    // Log in again: the password step, with what was typed still there.
    await user.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(screen.getByLabelText('Email')).toHaveValue('two@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('secret-pass');
    expect(screen.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
  });

  it('once the password step is over 5 minutes old, a refused code means starting again', async () => {
    spyConsoleError();
    const fetchMock = twoStepServer(mfaInvalid);
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    const code = await passwordStep(user);
    const issued = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(issued + MFA_TOKEN_LIFETIME_MS + 1_000);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The sign-in took too long.')).toBeInTheDocument();
    expect(alert).toHaveTextContent(serverMessages.mfaInvalid);
    expect(screen.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
    const again = within(alert).getByRole('button', { name: 'Log in again' });
    expect(again).toHaveFocus();
    await user.click(again);
    // A new password step asks for a new mfa_token.
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByLabelText('Code from your authenticator app')).toBeInTheDocument();
    expect(callsTo(fetchMock, apiPaths.token)).toHaveLength(2);
  });

  it('says when the code step is throttled', async () => {
    spyConsoleError();
    twoStepServer(() =>
      jsonResponse(429, { detail: serverMessages.throttled(30), code: errorCodes.throttled }, { 'Retry-After': '30' }),
    );
    const { user } = renderRoute(<LoginForm onSuccess={() => {}} />);
    await user.type(await passwordStep(user), '123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 30 seconds.');
    expect(screen.queryByText(/more than 5 minutes have passed/i)).not.toBeInTheDocument();
  });

  it('goes where a login goes: back to the ?next= page', async () => {
    twoStepServer();
    const { user } = renderRoute(<LoginRoute />, { path: '/login', entry: '/login?next=%2Fsessions' });
    await user.type(await passwordStep(user), '123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('location')).toHaveTextContent(/^\/sessions$/);
  });
});
