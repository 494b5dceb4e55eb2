import { apiPaths, serverMessages, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { jsonResponse, mockFetch, renderRoute, spyConsoleError } from '../../../../test/helpers';
import { RegistrationForm } from './registration-form';

describeFormRules('registration form', {
  render: () => <RegistrationForm onSuccess={() => {}} />,
  required: { Email: 'email', Password: 'password1', 'Password again': 'password2' },
  valid: { Email: 'new@example.com', Password: 'Str0ng-pass', 'Password again': 'Str0ng-pass' },
  mustMatch: { original: 'Password', confirm: 'Password again' },
  submitPath: apiPaths.registration,
  serverError: {
    body: { password1: ['This password is too common.'] },
    label: 'Password',
    message: 'This password is too common.',
  },
});

describe('registration form', () => {
  it('stores the 201 key as the token and reports success', async () => {
    const fetchMock = mockFetch(() => jsonResponse(201, { key: 'refresh-key' }));
    const onSuccess = vi.fn();
    const { user } = renderRoute(<RegistrationForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'Str0ng-pass');
    await user.type(screen.getByLabelText('Password again'), 'Str0ng-pass');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('refresh-key');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'new@example.com',
      password1: 'Str0ng-pass',
      password2: 'Str0ng-pass',
    });
  });

  it('shows the server message under the e-mail field when the address has an account, and stays', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(400, { email: [serverMessages.emailTaken] }));
    const onSuccess = vi.fn();
    const { user } = renderRoute(<RegistrationForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(screen.getByLabelText('Password'), 'Str0ng-pass');
    await user.type(screen.getByLabelText('Password again'), 'Str0ng-pass');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Email: ${serverMessages.emailTaken}`);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(serverMessages.emailTaken);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});
