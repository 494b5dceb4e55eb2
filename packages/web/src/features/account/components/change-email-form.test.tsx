import { apiPaths, serverMessages, type Profile } from '@hello/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import {
  callsTo,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
} from '../../../../test/helpers';
import ChangeEmailRoute from '@/app/routes/change-email';
import { ChangeEmailForm } from './change-email-form';

const profile: Profile = {
  email: 'me@example.com',
  first_name: '',
  last_name: '',
  user_profile: { telephone: '', mobile: '', website: '' },
};

async function fillAndSubmit(user: ReturnType<typeof renderRoute>['user'], email = 'new@example.com') {
  await user.type(screen.getByLabelText('New e-mail address'), email);
  await user.type(screen.getByLabelText('Current password'), 'Plum-Kettle-Orbit-42');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('change e-mail', () => {
  beforeEach(() => signedIn());

  describeFormRules('change e-mail form', {
    render: () => <ChangeEmailForm onSent={() => {}} />,
    required: { 'New e-mail address': 'new_email', 'Current password': 'password' },
    valid: { 'New e-mail address': 'new@example.com', 'Current password': 'Plum-Kettle-Orbit-42' },
    submitPath: apiPaths.changeEmail,
    serverError: {
      body: { password: [serverMessages.wrongPassword] },
      label: 'Current password',
      message: serverMessages.wrongPassword,
    },
  });

  it('names the current address, posts with Bearer, then says to check the new address, in place', async () => {
    const fetchMock = mockFetch((url, init) =>
      url === apiPaths.changeEmail
        ? jsonResponse(200, { status: 'OK' })
        : init.method !== 'GET'
          ? jsonResponse(404)
          : jsonResponse(200, profile),
    );
    const { user } = renderRoute(<ChangeEmailRoute />, { path: '/changeemail' });
    expect(await screen.findByText('me@example.com')).toBeInTheDocument();
    await fillAndSubmit(user);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Check your new address new@example.com for a confirmation link.');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Back to your profile' })).toHaveAttribute('href', '/userprofile');
    const [call] = callsTo(fetchMock, apiPaths.changeEmail);
    expect(call?.[1].method).toBe('POST');
    expect(headerOf(call?.[1], 'Authorization')).toBe('Bearer acc');
    expect(JSON.parse(String(call?.[1].body))).toEqual({
      new_email: 'new@example.com',
      password: 'Plum-Kettle-Orbit-42',
    });
  });

  it('shows the server message under the new address when it is already the account’s', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(400, { new_email: [serverMessages.sameEmail] }));
    const { user } = renderRoute(<ChangeEmailForm onSent={() => {}} />);
    await fillAndSubmit(user, 'me@example.com');
    await screen.findByRole('alert');
    expect(screen.getByLabelText('New e-mail address')).toHaveAccessibleDescription(serverMessages.sameEmail);
    expect(screen.getByRole('form', { name: 'Change e-mail address' })).toBeInTheDocument();
  });

  it('says so when the server throttles the requests', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(429, { detail: serverMessages.throttled(3540) }, { 'Retry-After': '3540' }));
    const { user } = renderRoute(<ChangeEmailForm onSent={() => {}} />);
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 59 minutes.');
  });
});
