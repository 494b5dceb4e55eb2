import { apiPaths, appRoutes, serverMessages, texts } from '@hello/contract';
import type { Mail } from '../support/mailbox';
import {
  expect,
  field,
  loginViaApi,
  loginViaUi,
  signIn,
  submitButton,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

/** The confirmation link (PUBLIC_URL + /confirmemail?token=…) inside the mail to the new address. */
function confirmLinkIn(mail: Mail): string {
  const match = /https?:\/\/[^\s"'<>]+\/confirmemail\?token=[^\s"'<>]+/.exec(mail.text);
  if (!match) throw new Error(`No confirmation link in the mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}

test('change e-mail: request, mailed link, confirmed; then the new address logs in and the old one does not', async ({
  page,
  request,
  user,
  baseURL,
}) => {
  const newEmail = uniqueEmail('moved');
  await signIn(page, user);
  await page.goto(appRoutes.changeEmail);
  await expect(page.getByRole('main').getByText(user.email, { exact: true })).toBeVisible();
  await field(page, 'new_email').fill(newEmail);
  await field(page, 'password').fill(user.password);
  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.changeEmail) && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole('alert')).toContainText(`Check your new address ${newEmail} for a confirmation link.`);
  await expect(submitButton(page)).toHaveCount(0);

  // Nothing changed yet: the old address still logs in.
  expect((await loginViaApi(request, user.email, user.password)).status).toBe(200);

  const link = confirmLinkIn(await waitForMail(newEmail));
  expect(link.startsWith(`${baseURL}${appRoutes.confirmEmail}?token=`)).toBe(true);
  let posts = 0;
  page.on('request', (req) => {
    if (req.url().endsWith(apiPaths.confirmEmail)) posts++;
  });
  await page.goto(link);
  await expect(page.getByText('Your e-mail address has been changed.', { exact: true })).toBeVisible();
  expect(posts).toBe(1);

  // Still signed in here: the profile shows the new address.
  await page.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page.getByRole('main').getByText(newEmail, { exact: true }).first()).toBeVisible();

  expect((await loginViaApi(request, user.email, user.password)).status).toBe(401);
  await page.evaluate(() => localStorage.clear());
  await loginViaUi(page, newEmail, user.password);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  // The link is used up.
  await page.goto(link);
  await expect(page.getByText(texts.tokenInvalid, { exact: true })).toBeVisible();
});

test('a wrong password shows the server message under the field and changes nothing', async ({ page, user }) => {
  await signIn(page, user);
  await page.goto(appRoutes.changeEmail);
  await field(page, 'new_email').fill(uniqueEmail('never'));
  await field(page, 'password').fill('Not-My-Password-3');
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toContainText(serverMessages.wrongPassword);
  await expect(field(page, 'password')).toHaveAccessibleDescription(new RegExp(serverMessages.wrongPassword));
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.changeEmail);
});
