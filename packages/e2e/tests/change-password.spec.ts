import { apiPaths, appRoutes, serverMessages } from '@hello/contract';
import {
  expect,
  field,
  loginViaApi,
  loginViaUi,
  OTHER_PASSWORD,
  refreshStatus,
  signIn,
  storedToken,
  submitButton,
  test,
} from './fixtures';

test('changing the password keeps the user logged in; then only the new password logs in', async ({
  page,
  request,
  user,
}) => {
  // A second session of the same user, as on another device.
  const other = await loginViaApi(request, user.email, user.password);
  expect(other.status).toBe(200);
  await signIn(page, user);
  await page.goto(appRoutes.changePassword);
  await field(page, 'old_password').fill(user.password);
  await field(page, 'new_password').fill(OTHER_PASSWORD);
  await field(page, 'confirm').fill(OTHER_PASSWORD);
  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.changePassword) && res.request().method() === 'PUT',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(200);

  // Success stores the returned refresh token and goes to /localnews.
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  await expect(page.getByRole('button', { name: 'refresh this page' })).toBeVisible();
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect(token).not.toBe(user.token);
  expect(await refreshStatus(request, token!)).toBe(200);
  // Every other session of the user ended.
  expect(await refreshStatus(request, other.body.refresh!)).toBe(401);

  // Logged out, the old password fails and the new one works, in the browser.
  await page.evaluate(() => localStorage.clear());
  await page.goto(appRoutes.login);
  await loginViaUi(page, user.email, user.password);
  await expect(page.getByRole('alert')).toContainText(serverMessages.noActiveAccount);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);

  await field(page, 'password').fill(OTHER_PASSWORD);
  await submitButton(page).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  expect((await loginViaApi(request, user.email, user.password)).status).toBe(401);
});

test('a wrong old password shows the server message and changes nothing', async ({ page, request, user }) => {
  await signIn(page, user);
  await page.goto(appRoutes.changePassword);
  await field(page, 'old_password').fill('Not-My-Password-3');
  await field(page, 'new_password').fill(OTHER_PASSWORD);
  await field(page, 'confirm').fill(OTHER_PASSWORD);
  await submitButton(page).click();

  await expect(page.getByRole('alert')).toContainText(serverMessages.wrongOldPassword);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.changePassword);
  expect((await loginViaApi(request, user.email, user.password)).status).toBe(200);
});
