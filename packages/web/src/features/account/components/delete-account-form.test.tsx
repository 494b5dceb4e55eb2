import { apiPaths, serverMessages, TOKEN_STORAGE_KEY } from '@hello/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { callsTo, jsonResponse, mockFetch, renderRoute, signedIn, spyConsoleError } from '../../../../test/helpers';
import DeleteAccountRoute from '@/app/routes/delete-account';
import { getAccessToken } from '@/lib/auth';
import { DELETE_CONFIRMATION, DeleteAccountForm } from './delete-account-form';

const PASSWORD = 'Plum-Kettle-Orbit-42';

describe('delete account', () => {
  beforeEach(() => signedIn());

  describeFormRules('delete account form', {
    render: () => <DeleteAccountForm onDeleted={() => {}} />,
    required: { 'Current password': 'password', [DELETE_CONFIRMATION]: 'confirm' },
    valid: { 'Current password': PASSWORD },
    beforeSubmit: (user) => user.click(screen.getByLabelText(DELETE_CONFIRMATION)),
    submitPath: apiPaths.deleteAccount,
    serverError: {
      body: { password: [serverMessages.wrongPassword] },
      label: 'Current password',
      message: serverMessages.wrongPassword,
    },
  });

  it('sends nothing until the confirmation is ticked', async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }));
    const { user } = renderRoute(<DeleteAccountForm onDeleted={() => {}} />);
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByLabelText(DELETE_CONFIRMATION)).toHaveAccessibleDescription('Required');
    expect(callsTo(fetchMock, apiPaths.deleteAccount)).toHaveLength(0);
  });

  it('deletes with the password only, forgets the tokens and says the account is gone', async () => {
    const fetchMock = mockFetch((url) =>
      url === apiPaths.deleteAccount
        ? new Response(null, { status: 204 })
        : jsonResponse(200, { email: 'me@example.com', first_name: '', last_name: '', user_profile: null }),
    );
    const { user } = renderRoute(<DeleteAccountRoute />, { path: '/deleteaccount' });
    expect(await screen.findByText('me@example.com')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current password'), PASSWORD);
    await user.click(screen.getByLabelText(DELETE_CONFIRMATION));
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Account deleted' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Your account has been deleted.');
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
    const [call] = callsTo(fetchMock, apiPaths.deleteAccount);
    expect(call?.[1].method).toBe('POST');
    expect(JSON.parse(String(call?.[1].body))).toEqual({ password: PASSWORD });
  });

  it('keeps the account and the tokens on a wrong password', async () => {
    spyConsoleError();
    mockFetch(() => jsonResponse(400, { password: [serverMessages.wrongPassword] }));
    const { user } = renderRoute(<DeleteAccountForm onDeleted={() => {}} />);
    await user.type(screen.getByLabelText('Current password'), 'Not-It-123');
    await user.click(screen.getByLabelText(DELETE_CONFIRMATION));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByRole('alert');
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(serverMessages.wrongPassword);
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('r');
  });
});
