import { renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch, signedIn } from '../../../../test/helpers';
import { getAuthState, setUserEmail } from '@/lib/auth';
import { useProfile } from './get-profile';

const profile = (email: string) => ({ email, first_name: '', last_name: '', user_profile: {} });

describe('useProfile', () => {
  beforeEach(() => signedIn());

  it('shows the profile and remembers its e-mail for the header', async () => {
    mockFetch(() => jsonResponse(200, profile('me@example.com')));
    const { result } = renderHook(() => useProfile());
    await waitFor(() => expect(result.current[0].status).toBe('ready'));
    expect(getAuthState().email).toBe('me@example.com');
  });

  it('asks again when the session changed hands while the answer was on its way: the new account is shown', async () => {
    const first = deferred<Response>();
    const answers = [first.promise, Promise.resolve(jsonResponse(200, profile('new@example.com')))];
    const fetchMock = mockFetch(() => answers.shift()!);
    const { result } = renderHook(() => useProfile());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    setUserEmail(null); // e.g. another tab signed someone else in: whatever was on its way is the old one's
    first.resolve(jsonResponse(200, profile('old@example.com')));
    await waitFor(() => expect(result.current[0].status).toBe('ready'));
    expect(result.current[0]).toMatchObject({ profile: { email: 'new@example.com' } });
    expect(getAuthState().email).toBe('new@example.com');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
