import { appRoutes, serverMessages } from '@hello/contract';
import { expect, loginViaUi, refreshStatus, storedToken, test } from './fixtures';

test('login with good credentials stores the token and goes to /localnews', async ({ page, request, user }) => {
  await page.goto(appRoutes.login);
  expect(await storedToken(page)).toBeNull();
  await loginViaUi(page, user.email, user.password);

  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  await expect(page.getByRole('button', { name: 'refresh this page' })).toBeVisible();
  await expect.poll(() => storedToken(page)).toBeTruthy();
  const token = await storedToken(page);
  expect(token).not.toBe(user.token); // a new session, not the registration's
  expect(await refreshStatus(request, token!)).toBe(200);

  // Only the refresh token is kept, under `token`; the access token and e-mail stay in memory.
  const kept = await page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }));
  expect(kept).toEqual({ local: ['token'], session: [] });
  expect(await page.context().cookies()).toEqual([]);
});

test('login with a wrong password stays on /login and shows the server message in an alert', async ({ page, user }) => {
  await page.goto(appRoutes.login);
  await loginViaUi(page, user.email, 'Not-The-Password-1');

  await expect(page.getByRole('alert')).toContainText(serverMessages.noActiveAccount);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
  expect(await storedToken(page)).toBeNull();
});

test('login with an unknown e-mail shows the same message', async ({ page }) => {
  await page.goto(appRoutes.login);
  await loginViaUi(page, 'nobody-here@example.com', 'Whatever-Password-9');

  await expect(page.getByRole('alert')).toContainText(serverMessages.noActiveAccount);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
  expect(await storedToken(page)).toBeNull();
});
