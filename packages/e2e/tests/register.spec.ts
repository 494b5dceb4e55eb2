import { apiPaths, appRoutes, serverMessages } from '@hello/contract';
import { expect, field, PASSWORD, refreshStatus, storedToken, submitButton, test, uniqueEmail } from './fixtures';

test('registration logs the new user in and lands on /localnews without passing /login', async ({ page, request }) => {
  const email = uniqueEmail('register');
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await page.goto(appRoutes.register);
  await field(page, 'email').fill(email);
  await field(page, 'password1').fill(PASSWORD);
  await field(page, 'password2').fill(PASSWORD);
  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.registration) && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(201);

  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);
  // The news list loads with the new session: no detour through /login at any point.
  await expect(page.getByRole('button', { name: 'refresh this page' })).toBeVisible();
  expect(visited).not.toContain(appRoutes.login);
  expect(new URL(page.url()).pathname).toBe(appRoutes.localNews);

  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect(await refreshStatus(request, token!)).toBe(200);
});

test('a registration the server refuses shows its message beside the field and in the alert', async ({ page }) => {
  await page.goto(appRoutes.register);
  await field(page, 'email').fill(uniqueEmail('short'));
  await field(page, 'password1').fill('short');
  await field(page, 'password2').fill('short');
  await submitButton(page).click();

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This password is too short. It must contain at least 8 characters.');
  // Beside the field too, not only in the form-level alert.
  await expect(page.getByText('This password is too short. It must contain at least 8 characters.')).toHaveCount(2);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.register);
  expect(await storedToken(page)).toBeNull();
});

test('registering an address that has an account shows the server message under the e-mail field', async ({
  page,
  user,
}) => {
  await page.goto(appRoutes.register);
  await field(page, 'email').fill(user.email.toUpperCase());
  await field(page, 'password1').fill(PASSWORD);
  await field(page, 'password2').fill(PASSWORD);
  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.registration) && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(400);

  await expect(page.getByRole('alert')).toContainText(serverMessages.emailTaken);
  await expect(field(page, 'email')).toHaveAccessibleDescription(new RegExp(serverMessages.emailTaken));
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.register);
  expect(await storedToken(page)).toBeNull();
});
