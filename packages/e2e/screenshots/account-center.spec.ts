import type { APIRequestContext, Page } from '@playwright/test';
import { apiPaths, appRoutes } from '@hello/contract';
import {
  expect,
  field,
  loginViaApi,
  loginViaUi,
  PASSWORD,
  registerViaApi,
  test,
  uniqueEmail,
  waitForMail,
} from '../tests/fixtures';
import { expectNoSidewaysScroll, shoot } from './shoot';

/** The account center's pages, signed in, at 1280×800 and on a 390×844 touch phone. */

const MAC_CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OTHER_DEVICES = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const EMAIL = 'devices@example.com';

/** Signed in through the login form as the fixed account (registered by the first test that needs it). */
async function signInAs(page: Page, request: APIRequestContext): Promise<void> {
  if ((await loginViaApi(request, EMAIL, PASSWORD)).status !== 200) await registerViaApi(request, EMAIL);
  await loginViaUi(page, EMAIL, PASSWORD);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
}

/** /sessions with this browser and exactly two other devices (an earlier run's left logged out first). */
async function openSessions(page: Page, request: APIRequestContext): Promise<void> {
  await signInAs(page, request);
  await page.goto(appRoutes.sessions);
  const list = page.getByRole('list', { name: 'Signed-in devices' });
  await expect(list).toBeVisible();
  const everywhere = page.getByRole('button', { name: 'Log out everywhere else' });
  if (await everywhere.isVisible()) {
    await everywhere.click();
    await page.getByRole('button', { name: 'Yes, log them out' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
  }
  for (const userAgent of OTHER_DEVICES) {
    const res = await request.post(apiPaths.token, {
      data: { email: EMAIL, password: PASSWORD },
      headers: { 'User-Agent': userAgent },
    });
    expect(res.status()).toBe(200);
  }
  await page.reload();
  await expect(list.getByRole('listitem')).toHaveCount(3);
}

async function openChangeEmail(page: Page, request: APIRequestContext): Promise<void> {
  await signInAs(page, request);
  await page.goto(appRoutes.changeEmail);
  await expect(page.getByRole('main').getByText(EMAIL, { exact: true })).toBeVisible();
  await field(page, 'new_email').fill('ada.lovelace@example.org');
}

/** A real confirmation, of a throwaway account's change (the fixed one keeps its address). */
async function openConfirmed(page: Page, request: APIRequestContext): Promise<void> {
  const user = await registerViaApi(request);
  const access = (await loginViaApi(request, user.email, PASSWORD)).body.access!;
  const newEmail = uniqueEmail('confirmed');
  const res = await request.post(apiPaths.changeEmail, {
    headers: { Authorization: `Bearer ${access}` },
    data: { new_email: newEmail, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  const link = /https?:\/\/[^\s"'<>]+\/confirmemail\?token=[^\s"'<>]+/.exec((await waitForMail(newEmail)).text)![0];
  await signInAs(page, request);
  await page.goto(link);
  await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible();
}

async function openDeleteAccount(page: Page, request: APIRequestContext): Promise<void> {
  await signInAs(page, request);
  await page.goto(appRoutes.deleteAccount);
  await expect(page.getByRole('main').getByText(EMAIL, { exact: true })).toBeVisible();
}

const pages: [name: string, open: (page: Page, request: APIRequestContext) => Promise<void>][] = [
  ['sessions', openSessions],
  ['change-email', openChangeEmail],
  ['confirm-email', openConfirmed],
  ['delete-account', openDeleteAccount],
];

test.describe('account center', () => {
  test.use({ viewport: { width: 1280, height: 800 }, userAgent: MAC_CHROME });
  for (const [name, open] of pages) {
    test(`account center: ${name}`, async ({ page, request }) => {
      await open(page, request);
      await shoot(page, name);
    });
  }
});

test.describe('account center on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: MAC_CHROME });
  for (const [name, open] of pages) {
    test(`account center: ${name} on a phone`, async ({ page, request }) => {
      await open(page, request);
      await expectNoSidewaysScroll(page);
      await shoot(page, `${name}-phone`);
    });
  }
});
