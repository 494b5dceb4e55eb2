import { apiPaths, TOKEN_STORAGE_KEY, type Profile } from '@hello/contract';
import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeFormRules } from '../../../../test/form-rules';
import { headerOf, jsonResponse, mockFetch, renderRoute, signedIn, tokenFromOtherTab } from '../../../../test/helpers';
import { setUserEmail } from '@/lib/auth';
import UserProfileRoute from '@/app/routes/user-profile';

const profile: Profile = {
  email: 'me@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_profile: { telephone: '', mobile: '', website: '' },
};
const loadProfile = (url: string, init: RequestInit) =>
  url === apiPaths.userProfile && (init.method ?? 'GET') === 'GET' ? jsonResponse(200, profile) : jsonResponse(404);

describe('profile', () => {
  beforeEach(() => signedIn());

  describeFormRules('profile form', {
    render: () => <UserProfileRoute />,
    ready: () => screen.findByLabelText('First name'),
    background: loadProfile,
    required: {
      'First name': 'first_name',
      'Last name': 'last_name',
      Telephone: 'user_profile.telephone',
      Mobile: 'user_profile.mobile',
      Website: 'user_profile.website',
    },
    valid: { 'First name': 'Grace', Website: 'example' },
    submitPath: apiPaths.userProfile,
    serverError: {
      body: { user_profile: { website: ['Enter a valid URL.'] } },
      label: 'Website',
      message: 'Enter a valid URL.',
    },
  });

  it("loads again when another tab signs in as someone else; keeps what is typed for the same account's new token", async () => {
    let answered = profile;
    const fetchMock = mockFetch((url, init) => {
      if (url === apiPaths.tokenRefresh) return jsonResponse(200, { access: 'acc2' });
      return url === apiPaths.userProfile && (init.method ?? 'GET') === 'GET'
        ? jsonResponse(200, answered)
        : jsonResponse(404);
    });
    const { user } = renderRoute(<UserProfileRoute />, { path: '/userprofile' });
    await user.type(await screen.findByLabelText('Telephone'), '123');
    // The same account's profile saved in another tab: a new token there, the same e-mail once asked.
    tokenFromOtherTab('r2');
    act(() => setUserEmail('me@example.com'));
    expect(screen.getByLabelText('Telephone')).toHaveValue('123');
    expect(fetchMock).toHaveBeenCalledTimes(1);

    answered = { ...profile, email: 'bob@example.com', first_name: 'Bob' };
    tokenFromOtherTab('r3');
    act(() => setUserEmail('bob@example.com'));
    expect(await screen.findByDisplayValue('Bob')).toBeInTheDocument();
    expect(screen.getByLabelText('Telephone')).toHaveValue('');
  });

  it('loads the profile with Bearer, saves multipart with dotted names, then shows the saved profile in a clean form', async () => {
    const saved: Profile = {
      ...profile,
      first_name: 'Grace',
      user_profile: { telephone: '555', mobile: '', website: '' },
    };
    const fetchMock = mockFetch((url, init) =>
      init.method === 'POST' ? jsonResponse(200, { user_info: saved, refresh: 'after-save' }) : loadProfile(url, init),
    );
    const { user } = renderRoute(<UserProfileRoute />, { path: '/userprofile' });
    const first = await screen.findByLabelText('First name');
    expect(first).toHaveValue('Ada');
    expect(headerOf(fetchMock.mock.calls[0]?.[1], 'Authorization')).toBe('Bearer acc');

    await user.clear(first);
    await user.type(first, 'Grace');
    await user.type(screen.getByLabelText('Telephone'), '555');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const summary = screen.getByLabelText('Saved profile');
    await within(summary).findByText('Grace Lovelace');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const body = post?.[1]?.body as FormData;
    expect([...body.keys()]).toEqual([
      'first_name',
      'last_name',
      'user_profile.telephone',
      'user_profile.mobile',
      'user_profile.website',
    ]);
    expect(body.get('user_profile.telephone')).toBe('555');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('after-save');
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
    expect(screen.getByRole('button', { name: 'Submit' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Reset' })).toHaveAttribute('aria-disabled', 'true');
    // Said politely, in a status region that was there before the words came.
    expect(screen.getByText('Profile saved.')).toHaveAttribute('role', 'status');
    // Changed again, it is no longer what was saved.
    await user.type(screen.getByLabelText('First name'), 'x');
    expect(screen.queryByText('Profile saved.')).not.toBeInTheDocument();
  });
});
