import { appRoutes, texts } from '@hello/contract';
import { routes } from '../support/routes';
import { expect, registerViaApi, signIn, test } from './fixtures';

/**
 * Every route of the specification's table (support/routes.ts): each answers 200 with the app, sits
 * under the `Hello all!` header, and shows its key text or controls.
 */

test('the table covers every route of the contract', () => {
  expect(routes.map((r) => r.path).sort()).toEqual(Object.values(appRoutes).sort());
});

for (const route of routes) {
  test(`${route.path} answers 200 and shows its page under the header`, async ({ page, request }) => {
    const user = route.signedIn || route.at ? await registerViaApi(request) : undefined;
    if (user && route.signedIn) await signIn(page, user);
    // An id route is opened on a real item, added just now by the signed-in user.
    const path = route.at && user ? await route.at(request, user) : route.path;
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByText(texts.header, { exact: true })).toBeVisible();
    await route.check(page);
    await expect(page.getByText(texts.notFound)).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(path);
  });
}

// The server's table is exact: letter case, a trailing slash and an id's spelling count.
for (const path of ['/nope', '/no/such/page', '/login/extra', '/LOGIN', '/about/', '/news/07']) {
  test(`unknown path ${path} shows the 404 page with status 404`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
    await expect(page.getByText(texts.header, { exact: true })).toBeVisible();
    await expect(page.getByText(texts.notFound, { exact: true })).toBeVisible();
  });
}
