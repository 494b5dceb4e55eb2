import { apiPaths, appRoutes, texts } from '@hello/contract';
import { expect, refreshStatus, signIn, storedToken, test } from './fixtures';

const logouts = [
  { path: appRoutes.logoutToken, call: apiPaths.logout },
  { path: appRoutes.logoutJwt, call: apiPaths.jwtLogout },
];

for (const { path, call } of logouts) {
  test(`${path}: Logout removes the stored token and ends the session on the server`, async ({
    page,
    request,
    user,
  }) => {
    await signIn(page, user);
    expect(await refreshStatus(request, user.token)).toBe(200);
    await page.goto(path);
    expect(await storedToken(page)).toBe(user.token);

    const sent = page.waitForRequest((req) => req.url().endsWith(call) && req.method() === 'POST');
    await page.getByRole('button', { name: texts.logout, exact: true }).click();
    await sent;

    await expect.poll(() => storedToken(page)).toBeNull();
    // The old refresh token no longer works: the session is over, not just forgotten.
    await expect.poll(() => refreshStatus(request, user.token)).toBe(401);

    // And it stays gone after a reload.
    await page.reload();
    expect(await storedToken(page)).toBeNull();
  });
}
