import { apiPaths } from '@hello/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockFetch, signedIn } from '../../test/helpers';
import { setUserEmail } from './auth';
import { askProfile } from './profile-request';

const profile = (email: string) => ({ email, user_profile: {} });

describe('askProfile', () => {
  beforeEach(() => signedIn());

  it('shares one request among callers while it is on its way', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    const header = askProfile();
    const page = askProfile();
    answer.resolve(jsonResponse(200, profile('me@example.com')));
    expect(await header).toEqual(profile('me@example.com'));
    expect(await page).toEqual(profile('me@example.com'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([apiPaths.userProfile]);
  });

  it('asks again once the answer has come: it keeps nothing', async () => {
    const answers = [profile('first@example.com'), profile('second@example.com')];
    const fetchMock = mockFetch(() => jsonResponse(200, answers.shift()));
    expect((await askProfile()).email).toBe('first@example.com');
    expect((await askProfile()).email).toBe('second@example.com');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('asks again after a failure', async () => {
    const answers = [jsonResponse(500), jsonResponse(200, profile('me@example.com'))];
    const fetchMock = mockFetch(() => answers.shift()!);
    await expect(askProfile()).rejects.toMatchObject({ status: 500 });
    expect((await askProfile()).email).toBe('me@example.com');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not share a request asked for before the session changed hands', async () => {
    const before = deferred<Response>();
    const answers = [before.promise, Promise.resolve(jsonResponse(200, profile('new@example.com')))];
    const fetchMock = mockFetch(() => answers.shift()!);
    const old = askProfile();
    setUserEmail(null); // e.g. a confirmed e-mail change: whatever was on its way may be stale
    const fresh = askProfile();
    before.resolve(jsonResponse(200, profile('old@example.com')));
    expect((await old).email).toBe('old@example.com');
    expect((await fresh).email).toBe('new@example.com');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
