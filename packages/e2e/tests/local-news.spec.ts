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
  // A reload of the list, not of the document: a marker on this window must survive the click, and
  // no document may be requested or navigated to in the main frame from here on.
  await page.evaluate(() => {
    (window as Window & { __sameDocument?: string }).__sameDocument = 'before refresh';
  });
  const documentRequests: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'document' && req.frame() === page.mainFrame()) documentRequests.push(req.url());
  });
  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  const again = page.waitForResponse((res) => isNewsList(res.url(), res.request().method()));
  await refresh.click();
  expect((await again).status()).toBe(200);
  await expect(refresh).toBeEnabled();
  expect(
    await page.evaluate(() => (window as Window & { __sameDocument?: string }).__sameDocument),
    'the window of before the click is still there',
  ).toBe('before refresh');
  expect(documentRequests, 'documents requested after the click').toEqual([]);
  expect(navigations, 'main-frame navigations after the click').toEqual([]);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  await page.getByRole('main').locator(`a[href="${appRoutes.changePassword}"]`).click();
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.changePassword);
});
