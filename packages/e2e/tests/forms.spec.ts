import type { APIRequestContext, Page } from '@playwright/test';
import { apiPaths, appRoutes, formMessages } from '@hello/contract';
import { expect, field, registerViaApi, resetButton, resetLinkViaApi, signIn, submitButton, test } from './fixtures';

/**
 * The browser's form rules (docs/web-app.md, "Forms") on every form: `Required` only once a field has been
 * touched, `Must match` on confirmations, Submit and Reset disabled while the form is unchanged.
 */

interface FormCase {
  name: string;
  /** Opens the form; resolves once it is ready to use. */
  open: (page: Page, request: APIRequestContext) => Promise<void>;
  /** Required fields, in the order they are touched. */
  required: string[];
  /** [original, confirmation] */
  mustMatch?: [string, string];
}

const goto = (path: string) => async (page: Page) => {
  await page.goto(path);
};
const signedInGoto = (path: string) => async (page: Page, request: APIRequestContext) => {
  await signIn(page, await registerViaApi(request));
  await page.goto(path);
};

const forms: FormCase[] = [
  { name: 'login', open: goto(appRoutes.login), required: ['email', 'password'] },
  {
    name: 'registration',
    open: goto(appRoutes.register),
    required: ['email', 'password1', 'password2'],
    mustMatch: ['password1', 'password2'],
  },
  { name: 'reset request', open: goto(appRoutes.resetPasswordRequest), required: ['email'] },
  {
    name: 'change password',
    open: signedInGoto(appRoutes.changePassword),
    required: ['old_password', 'new_password', 'confirm'],
    mustMatch: ['new_password', 'confirm'],
  },
  {
    name: 'reset confirm',
    open: async (page, request) => {
      const user = await registerViaApi(request);
      await page.goto(await resetLinkViaApi(request, user.email));
      await expect(field(page, 'password')).toBeVisible();
    },
    required: ['password', 'confirm'],
    mustMatch: ['password', 'confirm'],
  },
  { name: 'add news', open: signedInGoto(appRoutes.addLocalNews), required: ['title', 'content', 'files'] },
  {
    name: 'profile',
    open: async (page, request) => {
      await signIn(page, await registerViaApi(request));
      const loaded = page.waitForResponse(
        (res) => res.url().endsWith(apiPaths.userProfile) && res.request().method() === 'GET',
      );
      await page.goto(appRoutes.userProfile);
      expect((await loaded).status()).toBe(200);
      await expect(field(page, 'first_name')).toBeEditable();
    },
    required: ['first_name', 'last_name'],
  },
  { name: 'change e-mail', open: signedInGoto(appRoutes.changeEmail), required: ['new_email', 'password'] },
  // `confirm` is the "I understand" checkbox: touched and left unticked, it is Required too.
  { name: 'delete account', open: signedInGoto(appRoutes.deleteAccount), required: ['password', 'confirm'] },
];

const requiredMessages = (page: Page) => page.getByText(formMessages.required, { exact: true });
const textual = (page: Page, name: string) => field(page, name).and(page.locator(':not([type=file])'));

for (const form of forms) {
  test(`${form.name} form: Required only after touch, Submit and Reset disabled while unchanged`, async ({
    page,
    request,
  }) => {
    await form.open(page, request);
    const first = form.required[0]!;
    await expect(field(page, first)).toBeVisible();
    await expect(submitButton(page)).toBeDisabled();
    await expect(resetButton(page)).toBeDisabled();
    await expect(requiredMessages(page)).toHaveCount(0);

    // Touching (focus, then leave) shows the message for that field alone, one at a time.
    for (const [index, name] of form.required.entries()) {
      await field(page, name).focus();
      await expect(requiredMessages(page)).toHaveCount(index);
      await field(page, name).blur();
      await expect(requiredMessages(page)).toHaveCount(index + 1);
    }
    // Touching changes no value: still nothing to submit or reset.
    await expect(submitButton(page)).toBeDisabled();
    await expect(resetButton(page)).toBeDisabled();

    // Typing makes the form changed and clears that field's message.
    const typed = form.required.find((name) => name !== 'files')!;
    await textual(page, typed).fill('something');
    await expect(submitButton(page)).toBeEnabled();
    await expect(resetButton(page)).toBeEnabled();
    await expect(requiredMessages(page)).toHaveCount(form.required.length - 1);

    // Taking the change back leaves the form unchanged again.
    await textual(page, typed).fill('');
    await expect(submitButton(page)).toBeDisabled();
    await expect(resetButton(page)).toBeDisabled();

    // Reset brings back the unchanged form.
    await textual(page, typed).fill('something');
    await expect(resetButton(page)).toBeEnabled();
    await resetButton(page).click();
    await expect(textual(page, typed)).toHaveValue('');
    await expect(submitButton(page)).toBeDisabled();
    await expect(resetButton(page)).toBeDisabled();
    // Disabled by its own press, Reset keeps focus (docs/web-app.md, "Accessibility"), until it is left.
    await expect(resetButton(page)).toBeFocused();
    await textual(page, typed).focus();
    await expect(resetButton(page)).toHaveJSProperty('disabled', true);
  });

  const pair = form.mustMatch;
  if (pair) {
    test(`${form.name} form: ${pair[1]} must match ${pair[0]}`, async ({ page, request }) => {
      const [original, confirmation] = pair;
      await form.open(page, request);
      await field(page, original).fill('Lantern-Quiet-58');
      await field(page, original).blur();
      await expect(page.getByText(formMessages.mustMatch, { exact: true })).toHaveCount(0);

      await field(page, confirmation).fill('Lantern-Quiet-59');
      await field(page, confirmation).blur();
      await expect(page.getByText(formMessages.mustMatch, { exact: true })).toBeVisible();

      await field(page, confirmation).fill('Lantern-Quiet-58');
      await expect(page.getByText(formMessages.mustMatch, { exact: true })).toHaveCount(0);

      // Changing the original again breaks the match.
      await field(page, original).fill('Lantern-Quiet-57');
      await field(page, original).blur();
      await expect(page.getByText(formMessages.mustMatch, { exact: true })).toBeVisible();
    });
  }
}

test('a refused login keeps focus on Submit while it is sent and after, by mouse or by keyboard', async ({ page }) => {
  await page.goto(appRoutes.login);
  await field(page, 'email').fill('nobody-here@example.com');
  await field(page, 'password').fill('Not-The-Password-1');
  await submitButton(page).click();
  await expect(page.getByRole('alert')).toContainText('No active account found with the given credentials');
  await expect(submitButton(page)).toBeFocused();
  // Again from the keyboard: Enter on the focused Submit, then the same place once it is refused.
  await field(page, 'password').fill('Not-The-Password-2');
  await submitButton(page).focus();
  await page.keyboard.press('Enter');
  await expect(submitButton(page)).toBeFocused();
  await expect(page.getByRole('alert')).toContainText('No active account found with the given credentials');
  await expect(submitButton(page)).toBeEnabled();
  await expect(submitButton(page)).toBeFocused();
});

test('a refused login is logged to the console as an error, once per submission', async ({ page }) => {
  // docs/web-app.md: a failed submission shows the server's messages and is logged to the console.
  // Chromium itself reports the 401 as "Failed to load resource: …"; that notice is the browser's,
  // not the app's, so it is left out of the count.
  const logged: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) logged.push(msg.text());
  });
  await page.goto(appRoutes.login);
  await field(page, 'email').fill('nobody-here@example.com');
  await field(page, 'password').fill('Not-The-Password-1');
  expect(logged, 'errors logged before the submission').toEqual([]);

  const refused = page.waitForResponse(
    (res) => new URL(res.url()).pathname === apiPaths.token && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await refused).status()).toBe(401);
  await expect(page.getByRole('alert')).toContainText('No active account found with the given credentials');
  // One entry, and it is about this failure: the refused call's status is in it.
  await expect.poll(() => logged.length, { message: 'app errors logged after the refused login' }).toBe(1);
  expect(logged[0]).toContain('401');

  // A second refused submission is logged again.
  await field(page, 'password').fill('Not-The-Password-2');
  await submitButton(page).click();
  await expect.poll(() => logged.length, { message: 'app errors logged after two refused logins' }).toBe(2);
  expect(logged[1]).toContain('401');
});
