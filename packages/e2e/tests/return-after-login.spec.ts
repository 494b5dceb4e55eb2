import { randomUUID } from 'node:crypto';
import { apiPaths, appRoutes, texts, type AccessToken, type NewsItem } from '@hello/contract';
import {
  expect,
  field,
  loginViaUi,
  postNewsViaApi,
  refreshStatus,
  signIn,
  storedToken,
  test,
  textFile,
} from './fixtures';

for (const target of [appRoutes.userProfile, appRoutes.localNews]) {
  test(`a failed refresh on ${target} sends the user to /login and back after logging in`, async ({
    page,
    request,
    user,
  }) => {
    await signIn(page, { token: 'bogus.refresh.token' });
    await page.goto(target);

    await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
    // Auth was cleared: the bogus token is gone.
    await expect.poll(() => storedToken(page)).toBeNull();

    await loginViaUi(page, user.email, user.password);
    await expect(page).toHaveURL((url) => url.pathname === target);
    if (target === appRoutes.userProfile) {
      await expect(field(page, 'first_name')).toBeVisible();
    } else {
      await expect(page.getByRole('button', { name: 'refresh this page' })).toBeVisible();
    }
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(await refreshStatus(request, token!)).toBe(200);
  });
}

test('a 401 token_not_valid on the news list is answered by one refresh and one retry, with no trip to /login', async ({
  page,
  request,
  user,
}) => {
  // A news item of this user, so the list the retry brings back has something to show.
  await postNewsViaApi(request, user, {
    title: `Retried list ${randomUUID().slice(0, 8)}`,
    content: 'Seen after one refresh.',
    files: [textFile('retry.txt')],
  });
  await signIn(page, user);

  // Every refresh POST and news-list GET, in the order the page sent them.
  const calls: { call: 'refresh' | 'list'; authorization?: string }[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname === apiPaths.tokenRefresh && req.method() === 'POST') calls.push({ call: 'refresh' });
    if (pathname === apiPaths.localNews && req.method() === 'GET')
      calls.push({ call: 'list', authorization: req.headers().authorization });
  });
  const accessTokens: string[] = [];
  page.on('response', async (res) => {
    if (new URL(res.url()).pathname === apiPaths.tokenRefresh && res.ok())
      accessTokens.push(((await res.json()) as AccessToken).access);
  });
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });

  // The first GET of the list is refused as an expired access token is (docs/api.md: 401 with
  // code token_not_valid and a WWW-Authenticate header); every later one reaches the server.
  let refused = 0;
  await page.route(
    (url) => url.pathname === apiPaths.localNews,
    async (route) => {
      if (route.request().method() !== 'GET' || refused > 0) return route.continue();
      refused += 1;
      return route.fulfill({
        status: 401,
        contentType: 'application/json',
        headers: { 'WWW-Authenticate': 'Bearer realm="api"' },
        body: JSON.stringify({ detail: 'Given token not valid for any token type', code: 'token_not_valid' }),
      });
    },
  );

  const retried = page.waitForResponse(
    (res) =>
      new URL(res.url()).pathname === apiPaths.localNews && res.request().method() === 'GET' && res.status() === 200,
  );
  await page.goto(appRoutes.localNews);
  const listed = (await (await retried).json()) as NewsItem[];
  expect(refused).toBe(1);

  // The list the retry fetched is on the page.
  const shown = page.getByRole('main').getByRole('heading', { level: 2 });
  await expect(shown).toBeVisible();
  expect(listed.map((item) => item.title)).toContain(await shown.textContent());
  await expect(page.getByRole('button', { name: texts.refreshThisPage, exact: true })).toBeEnabled();

  // The restore on load, the refused GET, exactly one refresh, then the retry, and nothing more.
  expect(calls.map(({ call }) => call)).toEqual(['refresh', 'list', 'refresh', 'list']);
  const [, first, , retry] = calls;
  expect(first?.authorization).toMatch(/^Bearer \S+$/);
  expect(retry?.authorization).toMatch(/^Bearer \S+$/);
  expect(retry?.authorization).not.toBe(first?.authorization);
  // The retry carries the access token that the refresh after the 401 answered.
  await expect.poll(() => accessTokens.length).toBe(2);
  expect(first?.authorization).toBe(`Bearer ${accessTokens[0]}`);
  expect(retry?.authorization).toBe(`Bearer ${accessTokens[1]}`);

  // Still signed in where the user was: never sent to /login, the stored token kept.
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  expect(visited).not.toContain(appRoutes.login);
  expect(await storedToken(page)).toBe(user.token);
});
