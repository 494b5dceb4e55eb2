import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { apiPaths, appRoutes, serverMessages, texts } from '@hello/contract';
import { Authenticator } from '../support/authenticator';
import { expect, field, loginViaApi, loginViaUi, refreshStatus, storedToken, submitButton, test } from './fixtures';

const CODE_LABEL = 'Code from your authenticator app';

async function logOut(page: Page): Promise<void> {
  await page.goto(appRoutes.logoutJwt);
  await page.getByRole('button', { name: texts.logout, exact: true }).click();
  await expect.poll(() => storedToken(page)).toBeNull();
}

/** The login's password step for an account with two-step sign-in: the code step, no token yet. */
async function passwordStep(page: Page, email: string, password: string): Promise<void> {
  await loginViaUi(page, email, password);
  await expect(page.getByLabel(CODE_LABEL)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
  expect(await storedToken(page)).toBeNull();
}

async function expectSignedIn(page: Page, request: Parameters<typeof refreshStatus>[0]): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  await expect.poll(() => storedToken(page)).toBeTruthy();
  expect(await refreshStatus(request, (await storedToken(page))!)).toBe(200);
}

test('two-step sign-in: set up with a QR code, log in with codes and recovery codes, turn off', async ({
  page,
  request,
  user,
}) => {
  // Codes of three distinct 30-second steps are needed, so the test may wait up to a minute.
  test.setTimeout(180_000);
  await loginViaUi(page, user.email, user.password);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  // The profile links to the page.
  await page.goto(appRoutes.userProfile);
  await page.getByRole('main').getByRole('link', { name: 'Two-step sign-in', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.twoFactor);
  await expect(page.getByText(/Two-step sign-in is off/)).toBeVisible();

  // Set up: the QR code is drawn in the page, the key shown to type.
  await field(page, 'password').fill(user.password);
  await submitButton(page).click();
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(qr).toBeVisible();
  expect((await qr.boundingBox())!.width).toBeGreaterThan(150);
  const secret = (await page.locator('.totp-secret').textContent())!.replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const app = new Authenticator(secret);

  // Another device signed in now is logged out when two-step sign-in goes on; this one stays.
  const other = await loginViaApi(request, user.email, user.password);
  expect(other.status).toBe(200);

  await page.getByLabel(CODE_LABEL).fill(await app.nextCode(page));
  await submitButton(page).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  await expect(page.getByText(/has been logged out/)).toBeVisible();
  expect(await refreshStatus(request, other.body.refresh!)).toBe(401);
  expect(await refreshStatus(request, (await storedToken(page))!)).toBe(200);

  // Download: the codes as a .txt file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('recovery-codes.txt');
  const saved = await file.createReadStream().then(async (stream) => {
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text;
  });
  for (const code of recoveryCodes) expect(saved).toContain(code);

  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 recovery codes left.')).toBeVisible();
  // Shown once: a reload does not bring them back.
  await page.reload();
  await expect(page.getByText('10 recovery codes left.')).toBeVisible();
  await expect(page.getByText(recoveryCodes[0]!)).toHaveCount(0);

  // Log in: the code step; a wrong code is refused with the server's message, the right one signs in.
  await logOut(page);
  await passwordStep(page, user.email, user.password);
  await page.getByLabel(CODE_LABEL).fill('000000');
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toContainText(serverMessages.mfaInvalid);
  expect(await storedToken(page)).toBeNull();
  await page.getByLabel(CODE_LABEL).fill(await app.nextCode(page));
  await submitButton(page).click();
  await expectSignedIn(page, request);

  // A recovery code, typed loosely (case and spaces), signs in once.
  await logOut(page);
  await passwordStep(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(` ${recoveryCodes[0]!.toUpperCase()} `);
  await submitButton(page).click();
  await expectSignedIn(page, request);

  // The same recovery code a second time is refused.
  await logOut(page);
  await passwordStep(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toContainText(serverMessages.mfaInvalid);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
  expect(await storedToken(page)).toBeNull();
  await page.getByLabel('Recovery code').fill(recoveryCodes[1]!);
  await submitButton(page).click();
  await expectSignedIn(page, request);

  // Turn it off from /twofactor: password and a code, asked first.
  await page.goto(appRoutes.twoFactor);
  await expect(page.getByText('8 recovery codes left.')).toBeVisible();
  await field(page, 'password').fill(user.password);
  await page.getByLabel(CODE_LABEL).fill(await app.nextCode(page));
  await submitButton(page).click();
  await page.getByRole('button', { name: 'Yes, turn it off' }).click();
  await expect(page.getByText('Two-step sign-in is now off.')).toBeVisible();
  await expect(page.getByText(/Two-step sign-in is off/)).toBeVisible();

  // A plain login again: no code step.
  await logOut(page);
  await loginViaUi(page, user.email, user.password);
  await expectSignedIn(page, request);
  const login = await request.post(apiPaths.token, { data: { email: user.email, password: user.password } });
  expect(Object.keys((await login.json()) as object).sort()).toEqual(['access', 'refresh']);
});

/** axe's violations on the page as it stands (the tags of accessibility.spec.ts), one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The main area's buttons and inputs under 44×44 CSS pixels (what accessibility.spec.ts checks on a phone). */
function smallTargets(page: Page): Promise<string[]> {
  return page.getByRole('main').evaluate((main) =>
    Array.from(main.querySelectorAll<HTMLElement>('button, input'))
      .filter((el) => el.checkVisibility())
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ el, box }) => `${el.textContent || el.getAttribute('name')} ${box.width}×${box.height}`),
  );
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the set-up, the recovery codes and the login code step pass axe, with 44 px targets', async ({
    page,
    user,
  }) => {
    await loginViaUi(page, user.email, user.password);
    await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
    await page.goto(appRoutes.twoFactor);
    await field(page, 'password').fill(user.password);
    await submitButton(page).click();
    await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    expect.soft(await axeViolations(page), 'axe on the set-up').toEqual([]);
    expect.soft(await smallTargets(page), 'small targets on the set-up').toEqual([]);

    const app = new Authenticator((await page.locator('.totp-secret').textContent())!.replace(/\s/g, ''));
    await page.getByLabel(CODE_LABEL).fill(await app.nextCode(page));
    await submitButton(page).click();
    await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
    expect.soft(await axeViolations(page), 'axe on the recovery codes').toEqual([]);
    expect.soft(await smallTargets(page), 'small targets on the recovery codes').toEqual([]);

    await logOut(page);
    await passwordStep(page, user.email, user.password);
    expect.soft(await axeViolations(page), 'axe on the code step').toEqual([]);
    expect.soft(await smallTargets(page), 'small targets on the code step').toEqual([]);
    // A long address (nowhere to break but its hyphens) wraps inside the card: nothing scrolls sideways.
    const address = page.locator('.code-step strong');
    await address.evaluate((el) => (el.textContent = 'christopher.montgomery.wellington@universityname.example.edu'));
    const widths = await page.evaluate(() => {
      const card = document.querySelector('.code-step')!.closest('.page')!;
      return { page: document.documentElement.scrollWidth, card: card.scrollWidth, cardBox: card.clientWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.card).toBeLessThanOrEqual(widths.cardBox);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(page.getByLabel('Recovery code')).toBeFocused();
    expect.soft(await axeViolations(page), 'axe on the recovery code step').toEqual([]);
  });
});
