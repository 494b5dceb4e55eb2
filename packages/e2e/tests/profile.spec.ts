import { apiPaths, appRoutes } from '@hello/contract';
import {
  expect,
  field,
  refreshStatus,
  registerViaApi,
  signIn,
  storedToken,
  submitButton,
  test,
  uniqueEmail,
} from './fixtures';

const edits = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  'user_profile.telephone': '+44 20 7946 0000',
  'user_profile.mobile': '+44 7700 900123',
  'user_profile.website': 'https://example.com/ada',
};

test('a profile edit is saved and still there after a reload', async ({ page, request, user }) => {
  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  await expect(page.getByRole('main').getByText(user.email).first()).toBeVisible();
  for (const [name, value] of Object.entries(edits)) await field(page, name).fill(value);

  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.userProfile) && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(200);

  // The save answers a new refresh token, which the app stores.
  await expect.poll(() => storedToken(page)).not.toBe(user.token);
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect(await refreshStatus(request, token!)).toBe(200);

  // After the reload the page asks for the profile and the header asks who is signed in: one
  // request answers both. The answer is held back until the page is shown (its chunk loaded, its
  // load asked for on mount), so that both ask while it is on its way whatever loads first.
  const profileReads: string[] = [];
  const pageShown = page.getByRole('heading', { name: 'Your profile' });
  await page.route(`**${apiPaths.userProfile}`, async (route) => {
    if (route.request().method() === 'GET') {
      profileReads.push(route.request().url());
      await pageShown.waitFor();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await route.continue();
  });
  await page.reload();
  for (const [name, value] of Object.entries(edits)) await expect(field(page, name)).toHaveValue(value);
  await expect(page.getByRole('main').getByText(user.email).first()).toBeVisible();
  await expect(page.getByText(`Signed in as ${user.email}`, { exact: true })).toBeVisible();
  expect(profileReads).toHaveLength(1);
  await page.unrouteAll();

  // A page that loads nothing about the user: only the refresh token survived the load, and the
  // header still names whoever is signed in.
  await page.goto(appRoutes.about);
  await expect(page.getByText(`Signed in as ${user.email}`, { exact: true })).toBeVisible();
});

test('on a phone the header shows the whole signed-in address, however long, beside a usable Menu', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const long = await registerViaApi(request, uniqueEmail('a-rather-long-name.of-a-reporter-for-the-village'));
  await signIn(page, long);
  await page.goto(appRoutes.about);
  const badge = page.getByText(`Signed in as ${long.email}`, { exact: true });
  await expect(badge).toBeVisible();
  // Nothing of it cut off (an ellipsis would leave its text wider than its box), nor the page widened.
  expect(await badge.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible();
});

test('another tab signing in as someone else: this tab shows that account, never the one before', async ({
  page,
  request,
  user,
}) => {
  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  const main = page.getByRole('main');
  await expect(main.getByText(user.email).first()).toBeVisible();
  const other = await registerViaApi(request);
  const tab = await page.context().newPage();
  await signIn(tab, other); // the shared stored token changes: this tab hears of it
  await expect(main.getByText(other.email).first()).toBeVisible();
  await expect(main.getByText(user.email)).toHaveCount(0);
  await tab.close();
});
