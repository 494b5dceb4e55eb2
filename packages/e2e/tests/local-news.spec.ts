import { apiPaths, appRoutes, texts } from '@hello/contract';
import { expect, signIn, test } from './fixtures';

const isNewsList = (url: string, method: string) => new URL(url).pathname === apiPaths.localNews && method === 'GET';

test('refresh this page loads the list again; the link goes to /changepassword', async ({ page, user }) => {
  await signIn(page, user);
  const first = page.waitForResponse((res) => isNewsList(res.url(), res.request().method()));
  await page.goto(appRoutes.localNews);
  const firstAnswer = await first;
  expect(firstAnswer.status()).toBe(200);
  // The list is fetched with the access token, never the refresh token.
  expect(firstAnswer.request().headers().authorization).toMatch(/^Bearer /);

  const refresh = page.getByRole('button', { name: texts.refreshThisPage, exact: true });
  await expect(refresh).toBeEnabled();
  const again = page.waitForResponse((res) => isNewsList(res.url(), res.request().method()));
  await refresh.click();
  expect((await again).status()).toBe(200);
  await expect(refresh).toBeEnabled();
  // A reload of the list, not of the document.
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  await page.getByRole('main').locator(`a[href="${appRoutes.changePassword}"]`).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.changePassword);
});
