import { appRoutes, serverMessages } from '@hello/contract';
import {
  accessTokenViaApi,
  expect,
  field,
  getNewsViaApi,
  loginViaApi,
  postNewsViaApi,
  refreshStatus,
  registerViaApi,
  signIn,
  storedToken,
  submitButton,
  test,
  textFile,
} from './fixtures';

test('deleting the account from the profile: its news goes, it cannot log in, the e-mail can register again', async ({
  page,
  request,
  user,
}) => {
  const item = await postNewsViaApi(request, user, {
    title: 'Soon gone',
    content: 'Deleted with its author.',
    files: [textFile('gone.txt')],
  });
  const reader = await registerViaApi(request);
  const readerAccess = await accessTokenViaApi(request, reader);
  expect((await getNewsViaApi(request, readerAccess, item.id)).status).toBe(200);

  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  await page.getByRole('link', { name: 'Delete account' }).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.deleteAccount);
  await expect(page.getByRole('main').getByText(user.email, { exact: true })).toBeVisible();

  // Nothing is sent without the confirmation ticked.
  await field(page, 'password').fill(user.password);
  await submitButton(page).click();
  await expect(field(page, 'confirm')).toHaveAccessibleDescription(/Required/);

  // A wrong password: the server's message, and the account stays.
  await field(page, 'password').fill('Not-My-Password-3');
  await field(page, 'confirm').check();
  await submitButton(page).click();
  await expect(field(page, 'password')).toHaveAccessibleDescription(new RegExp(serverMessages.wrongPassword));
  expect(await refreshStatus(request, user.token)).toBe(200);

  await field(page, 'password').fill(user.password);
  const answer = page.waitForResponse((res) => res.url().endsWith('/api/v1/user/delete/'));
  await submitButton(page).click();
  expect((await answer).status()).toBe(204);
  await expect(page.getByRole('heading', { name: 'Account deleted' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Your account has been deleted.');
  expect(await storedToken(page)).toBeNull();

  expect(await refreshStatus(request, user.token)).toBe(401);
  expect((await loginViaApi(request, user.email, user.password)).status).toBe(401);
  expect((await getNewsViaApi(request, readerAccess, item.id)).status).toBe(404);
  const again = await registerViaApi(request, user.email, user.password);
  expect(await refreshStatus(request, again.token)).toBe(200);
});
