import { apiPaths } from '@hello/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { jsonResponse, mockFetch, renderRoute } from '../../../../test/helpers';
import ResetPasswordRequestRoute from '@/app/routes/reset-password-request';
import { ResetRequestForm } from './reset-request-form';

describeFormRules('reset request form', {
  render: () => <ResetRequestForm onSuccess={() => {}} />,
  required: { Email: 'email' },
  valid: { Email: 'me@example.com' },
  submitPath: apiPaths.passwordReset,
  serverError: {
    body: { email: ['Enter a valid email address.'] },
    label: 'Email',
    message: 'Enter a valid email address.',
  },
});

describe('reset request page', () => {
  it('sends the e-mail with the reset page path, then shows the confirmation route', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { status: 'OK' }));
    const { user } = renderRoute(<ResetPasswordRequestRoute />, { path: '/resetpasswordrequest' });
    await user.type(screen.getByLabelText('Email'), 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/resetpasswordrequestconfirmed');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'me@example.com',
      reset_new_password_path: '/resetnewpassword',
    });
    // One call, the reset request itself: no second submit, no token exchange for an anonymous form.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(apiPaths.passwordReset);
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
  });
});
