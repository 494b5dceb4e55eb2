import { apiPaths } from '@hello/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { deferred, jsonResponse, mockFetch, renderRoute, spyConsoleError } from '../../../../test/helpers';
import ResetNewPasswordRoute from '@/app/routes/reset-new-password';
import { ResetConfirmForm } from './reset-confirm-form';

describeFormRules('reset confirm form', {
  render: () => <ResetConfirmForm token="tok" onSuccess={() => {}} onTokenInvalid={() => {}} />,
  required: { 'New password': 'password', 'Confirm new password': 'confirm' },
  valid: { 'New password': 'new-Passw0rd', 'Confirm new password': 'new-Passw0rd' },
  mustMatch: { original: 'New password', confirm: 'Confirm new password' },
  submitPath: apiPaths.passwordResetConfirm,
  serverError: {
    body: { password: ['This password is too short. It must contain at least 8 characters.'] },
    label: 'New password',
    message: 'This password is too short. It must contain at least 8 characters.',
  },
});

const page = (entry: string) => renderRoute(<ResetNewPasswordRoute />, { path: '/resetnewpassword', entry });

describe('reset new password page', () => {
  it('reads the token, shows Reading data while checking it, then the form; a 200 confirm goes to /login', async () => {
    const check = deferred<Response>();
    const fetchMock = mockFetch((url) =>
      url === apiPaths.passwordResetValidateToken ? check.promise : jsonResponse(200, { status: 'OK' }),
    );
    const { user } = page('/resetnewpassword?token=abc123');
    expect(screen.getByText('Reading data, please wait...')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ token: 'abc123' });
    check.resolve(jsonResponse(200, { status: 'OK' }));
    await user.type(await screen.findByLabelText('New password'), 'new-Passw0rd');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-Passw0rd');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    expect(screen.getByRole('alert')).toHaveTextContent('Your password was reset. Log in with the new one.');
    const confirm = fetchMock.mock.calls.find(([url]) => url === apiPaths.passwordResetConfirm);
    expect(JSON.parse(String(confirm?.[1]?.body))).toEqual({
      password: 'new-Passw0rd',
      confirm: 'new-Passw0rd',
      token: 'abc123',
    });
  });

  it('shows The token is invalid when the server does not know the token', async () => {
    mockFetch(() => jsonResponse(404, { status: 'notfound' }));
    page('/resetnewpassword?token=used');
    expect(await screen.findByText('The token is invalid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
  });

  it('shows The token is invalid for a token the server refuses as malformed (400)', async () => {
    mockFetch(() => jsonResponse(400, { token: ['Ensure this field has no more than 2048 characters.'] }));
    page('/resetnewpassword?token=bad');
    expect(await screen.findByText('The token is invalid')).toBeInTheDocument();
  });

  it.each([
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the server answers 503', () => jsonResponse(503)],
  ])(
    'when %s, says the link could not be checked (not that it is invalid), and Retry checks it again',
    async (_, fail) => {
      const consoleError = spyConsoleError();
      let calls = 0;
      const fetchMock = mockFetch(() => (++calls === 1 ? fail() : jsonResponse(200, { status: 'OK' })));
      const { user } = page('/resetnewpassword?token=abc123');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('The link could not be checked right now.');
      expect(alert).toHaveTextContent('The server could not be reached');
      expect(screen.queryByText('The token is invalid')).not.toBeInTheDocument();
      expect(consoleError).toHaveBeenCalled();

      await user.click(within(alert).getByRole('button', { name: 'Retry' }));
      expect(await screen.findByLabelText('New password')).toBeInTheDocument();
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
  );

  it('shows The token is invalid without calling the server when there is no token', () => {
    const fetchMock = mockFetch(() => jsonResponse(200));
    page('/resetnewpassword');
    expect(screen.getByText('The token is invalid')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
