import { appRoutes } from '@hello/contract';
import { expect, field, loginViaUi, refreshStatus, signIn, storedToken, test } from './fixtures';

for (const target of [appRoutes.userProfile, appRoutes.localNews]) {
  test(`a failed refresh on ${target} sends the user to /login and back after logging in`, async ({
    page,
    request,
    user,
  }) => {
    await signIn(page, { token: 'bogus.refresh.token' });
    await page.goto(target);

    await expect(page).toHaveURL((url) => url.pathname === appRoutes.login);
    // Auth was cleared: the bogus token is gone.
    await expect.poll(() => storedToken(page)).toBeNull();

    await loginViaUi(page, user.email, user.password);
    await expect(page).toHaveURL((url) => url.pathname === target);
    if (target === appRoutes.userProfile) {
      await expect(field(page, 'first_name')).toBeVisible();
    } else {
      await expect(page.getByRole('button', { name: 'refresh this page' })).toBeVisible();
    }
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(await refreshStatus(request, token!)).toBe(200);
  });
}
