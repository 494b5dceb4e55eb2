import type { APIRequestContext, Page } from '@playwright/test';
import { appRoutes } from '@hello/contract';
import { Authenticator } from '../support/authenticator';
import {
  expect,
  field,
  loginViaUi,
  PASSWORD,
  registerViaApi,
  submitButton,
  test,
  uniqueEmail,
  type User,
} from '../tests/fixtures';
import { expectNoSidewaysScroll, shoot } from './shoot';

/** /twofactor (off, and set up with its QR code), its recovery codes, and the login's code step. */

async function signedInOnTwoFactor(page: Page, request: APIRequestContext): Promise<User> {
  const user = await registerViaApi(request, uniqueEmail('two-step'));
  await loginViaUi(page, user.email, PASSWORD);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  await page.goto(appRoutes.twoFactor);
  await expect(page.getByText(/^Two-step sign-in is off/)).toBeVisible();
  return user;
}

async function startSetUp(page: Page): Promise<Authenticator> {
  await field(page, 'password').fill(PASSWORD);
  await submitButton(page).click();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  return new Authenticator((await page.locator('.totp-secret').textContent())!.replace(/\s/g, ''));
}

const shots: [name: string, open: (page: Page, request: APIRequestContext) => Promise<void>][] = [
  ['two-factor', async (page, request) => void (await signedInOnTwoFactor(page, request))],
  [
    'two-factor-setup',
    async (page, request) => {
      await signedInOnTwoFactor(page, request);
      await startSetUp(page);
    },
  ],
  [
    'two-factor-codes',
    async (page, request) => {
      await signedInOnTwoFactor(page, request);
      const app = await startSetUp(page);
      await page.getByLabel('Code from your authenticator app').fill(await app.nextCode(page));
      await submitButton(page).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    },
  ],
  [
    'login-code',
    async (page, request) => {
      const user = await signedInOnTwoFactor(page, request);
      const app = await startSetUp(page);
      await page.getByLabel('Code from your authenticator app').fill(await app.nextCode(page));
      await submitButton(page).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
      await page.evaluate(() => localStorage.clear());
      await page.goto(appRoutes.login);
      await loginViaUi(page, user.email, PASSWORD);
      await expect(page.getByLabel('Code from your authenticator app')).toBeFocused();
    },
  ],
];

test.describe('two-step sign-in', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  for (const [name, open] of shots) {
    test(`two-step sign-in: ${name}`, async ({ page, request }) => {
      await open(page, request);
      await shoot(page, name);
    });
  }
});

test.describe('two-step sign-in on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const [name, open] of shots) {
    test(`two-step sign-in: ${name} on a phone`, async ({ page, request }) => {
      await open(page, request);
      await expectNoSidewaysScroll(page);
      await shoot(page, `${name}-phone`);
    });
  }
});
