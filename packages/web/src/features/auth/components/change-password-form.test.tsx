import { apiPaths, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { headerOf, jsonResponse, mockFetch, renderRoute } from '../../../../test/helpers';
import { clearAuth, storeRefreshToken } from '@/lib/auth';
import ChangePasswordRoute from '@/app/routes/change-password';
import { ChangePasswordForm } from './change-password-form';

const refreshFirst = (url: string) =>
  url === apiPaths.tokenRefresh ? jsonResponse(200, { access: 'fresh' }) : jsonResponse(404);

describe('change password', () => {
  beforeEach(() => {
    clearAuth();
    storeRefreshToken('stored-refresh');
  });

  describeFormRules('change password form', {
    render: () => <ChangePasswordForm onSuccess={() => {}} />,
    required: { 'Current password': 'old_password', 'New password': 'new_password', 'Confirm new password': 'confirm' },
    valid: {
      'Current password': 'old-Passw0rd',
      'New password': 'new-Passw0rd',
      'Confirm new password': 'new-Passw0rd',
    },
    mustMatch: { original: 'New password', confirm: 'Confirm new password' },
    background: refreshFirst,
    submitPath: apiPaths.changePassword,
    serverError: {
      body: { old_password: ['Your old password was entered incorrectly. Please enter it again.'] },
      label: 'Current password',
      message: 'Your old password was entered incorrectly. Please enter it again.',
    },
  });

  it('exchanges the refresh token first, PUTs with that Bearer token, and stores the returned refresh', async () => {
    const fetchMock = mockFetch((url) =>
      url === apiPaths.changePassword ? jsonResponse(200, { refresh: 'after-change' }) : refreshFirst(url),
    );
    const onSuccess = vi.fn();
    const { user } = renderRoute(<ChangePasswordForm onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('Current password'), 'old-Passw0rd');
    await user.type(screen.getByLabelText('New password'), 'new-Passw0rd');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-Passw0rd');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    const [first, second] = fetchMock.mock.calls;
    expect(first?.[0]).toBe(apiPaths.tokenRefresh);
    expect(second?.[0]).toBe(apiPaths.changePassword);
    expect(second?.[1]?.method).toBe('PUT');
    expect(headerOf(second?.[1], 'Authorization')).toBe('Bearer fresh');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('after-change');
  });

  it('goes on to /localnews, which says the password was changed', async () => {
    mockFetch((url) =>
      url === apiPaths.changePassword ? jsonResponse(200, { refresh: 'after-change' }) : refreshFirst(url),
    );
    const { user } = renderRoute(<ChangePasswordRoute />, { path: '/changepassword' });
    await user.type(screen.getByLabelText('Current password'), 'old-Passw0rd');
    await user.type(screen.getByLabelText('New password'), 'new-Passw0rd');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-Passw0rd');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/localnews');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your password was changed. Your other devices were logged out.',
    );
  });
});
