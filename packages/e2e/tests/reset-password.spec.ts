import { apiPaths, appRoutes, texts } from '@hello/contract';
import {
  expect,
  field,
  gate,
  loginViaApi,
  loginViaUi,
  OTHER_PASSWORD,
  refreshStatus,
  resetLinkIn,
  submitButton,
  test,
  waitForMail,
  RESET_SUBJECT,
} from './fixtures';

test('reset round trip: request form, mailed link, new password, login with it', async ({
  page,
  request,
  user,
  baseURL,
}) => {
  await page.goto(appRoutes.resetPasswordRequest);
  await field(page, 'email').fill(user.email);
  await submitButton(page).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.resetPasswordRequestConfirmed);
  await expect(page.getByText(texts.resetRequestSent, { exact: true })).toBeVisible();

  const mail = await waitForMail(user.email, undefined, RESET_SUBJECT);
  const link = resetLinkIn(mail);
  // The link is built on PUBLIC_URL and the path the app sent.
  expect(link.startsWith(`${baseURL}${appRoutes.resetNewPassword}?token=`)).toBe(true);

  // Hold the token check so the pending state can be seen, then let it through.
  const check = gate();
  await page.route(`**${apiPaths.passwordResetValidateToken}`, async (route) => {
    await check.opened;
    await route.continue();
  });
  await page.goto(link);
  await expect(page.getByText(texts.readingData, { exact: true })).toBeVisible();
  await expect(field(page, 'password')).toHaveCount(0);
  check.open();

  await expect(field(page, 'password')).toBeVisible();
  await expect(page.getByText(texts.readingData, { exact: true })).toHaveCount(0);
  await field(page, 'password').fill(OTHER_PASSWORD);
  await field(page, 'confirm').fill(OTHER_PASSWORD);
  await submitButton(page).click();

  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
  // The reset ended every session, and the old password no longer works.
  expect(await refreshStatus(request, user.token)).toBe(401);
  expect((await loginViaApi(request, user.email, user.password)).status).toBe(401);

  await loginViaUi(page, user.email, OTHER_PASSWORD);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  // The link is used up.
  await page.unrouteAll();
  await page.goto(link);
  await expect(page.getByText(texts.tokenInvalid, { exact: true })).toBeVisible();
});

test('an invalid reset token shows "The token is invalid" and no form', async ({ page }) => {
  await page.goto(`${appRoutes.resetNewPassword}?token=bogus`);
  await expect(page.getByText(texts.tokenInvalid, { exact: true })).toBeVisible();
  await expect(field(page, 'password')).toHaveCount(0);
  await expect(submitButton(page)).toHaveCount(0);
});

test('a reset request for an unknown address also confirms: nothing tells whether it exists', async ({ page }) => {
  await page.goto(appRoutes.resetPasswordRequest);
  await field(page, 'email').fill('nobody-at-all@example.com');
  await submitButton(page).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.resetPasswordRequestConfirmed);
  await expect(page.getByText(texts.resetRequestSent, { exact: true })).toBeVisible();
});
