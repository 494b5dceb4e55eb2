import type { Browser, Page } from '@playwright/test';
import { apiPaths, appRoutes, TOKEN_STORAGE_KEY } from '@hello/contract';
import { expect, loginViaUi, refreshStatus, registerViaApi, storedToken, test } from './fixtures';

const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A browser of its own (cookies, storage, user agent), logged in through the login form. */
async function device(browser: Browser, baseURL: string, userAgent: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL, userAgent });
  const page = await context.newPage();
  await loginViaUi(page, email, password);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  return { context, page };
}

const devices = (page: Page) => page.getByRole('list', { name: 'Signed-in devices' });
const card = (page: Page, name: string) => devices(page).getByRole('listitem').filter({ hasText: name });
const status = (page: Page) => page.locator('.sessions-status');

test('two devices see each other; logging out the phone from the desktop sends the phone to /login', async ({
  browser,
  request,
  baseURL,
}) => {
  const user = await registerViaApi(request);
  const desk = await device(browser, baseURL!, DESKTOP_UA, user.email, user.password);
  const phone = await device(browser, baseURL!, PHONE_UA, user.email, user.password);
  try {
    for (const { page } of [desk, phone]) {
      await page.goto(appRoutes.sessions);
      await expect(card(page, 'Chrome on Windows')).toHaveCount(1);
      await expect(card(page, 'Safari on iPhone')).toHaveCount(1);
    }
    // Each browser's own session is "This device"; the raw user agent is there too.
    await expect(card(desk.page, 'Chrome on Windows')).toContainText('This device');
    await expect(card(desk.page, 'Safari on iPhone')).not.toContainText('This device');
    await expect(card(phone.page, 'Safari on iPhone')).toContainText('This device');
    await expect(card(desk.page, 'Safari on iPhone').getByText(PHONE_UA, { exact: true })).toBeAttached();
    await expect(card(desk.page, 'Chrome on Windows')).toContainText('127.0.0.x');

    const ended = desk.page.waitForResponse((res) => res.request().method() === 'DELETE');
    await card(desk.page, 'Safari on iPhone').getByRole('button', { name: 'Log out' }).click();
    expect((await ended).status()).toBe(204);
    await expect(status(desk.page)).toHaveText('Logged out Safari on iPhone.');
    await expect(card(desk.page, 'Safari on iPhone')).toHaveCount(0);
    await expect(card(desk.page, 'Chrome on Windows')).toHaveCount(1);
    // The pressed button left with its card: focus is on the line that says what happened.
    await expect(status(desk.page)).toBeFocused();

    // The phone's next call is refused, its token too: it is sent to /login, its stored token gone.
    const phoneToken = await phone.page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
    expect(await refreshStatus(request, phoneToken!)).toBe(401);
    await phone.page.goto(appRoutes.sessions);
    await expect(phone.page).toHaveURL((url) => url.pathname === appRoutes.login);
    expect(await storedToken(phone.page)).toBeNull();
  } finally {
    await desk.context.close();
    await phone.context.close();
  }
});

test('log out everywhere else asks first, then leaves only this device; logging out here is a logout', async ({
  browser,
  request,
  baseURL,
}) => {
  // The registration's session (the API client's) is the other device.
  const user = await registerViaApi(request);
  const desk = await device(browser, baseURL!, DESKTOP_UA, user.email, user.password);
  const { page } = desk;
  try {
    await page.goto(appRoutes.sessions);
    await expect(devices(page).getByRole('listitem')).toHaveCount(2);

    let revoked = 0;
    page.on('request', (req) => {
      if (req.url().endsWith(apiPaths.revokeOtherSessions)) revoked++;
    });
    await page.getByRole('button', { name: 'Log out everywhere else' }).click();
    const question = page.getByRole('group', { name: /Log out 1 other session\?/ });
    await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Log out everywhere else' })).toBeFocused();
    expect(revoked).toBe(0);

    await page.getByRole('button', { name: 'Log out everywhere else' }).click();
    await page.getByRole('button', { name: 'Yes, log them out' }).click();
    await expect(status(page)).toHaveText('Logged out 1 other session.');
    await expect(devices(page).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('No other device is signed in.')).toBeVisible();
    await expect(status(page)).toBeFocused();
    expect(await refreshStatus(request, user.token)).toBe(401);

    const mine = await storedToken(page);
    await card(page, 'Chrome on Windows').getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL((url) => url.pathname === appRoutes.home);
    expect(await storedToken(page)).toBeNull();
    expect(await refreshStatus(request, mine!)).toBe(401);
  } finally {
    await desk.context.close();
  }
});
