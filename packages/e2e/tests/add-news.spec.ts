import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { apiPaths, appRoutes, newsItemPath, newsItemRoute, texts, type NewsItem } from '@hello/contract';
import { expect, field, loginViaApi, signIn, submitButton, test } from './fixtures';

const files = [
  { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Two files travel with this item.\n') },
  {
    name: 'pixel.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  },
];

/**
 * /localnews shows one item of the newest page, picked with Math.random. Other tests add news on the
 * same server (at times a whole page of it), so the page's pick is steered to the item titled
 * `title`: each list the page fetches passes through unchanged, and Math.random then answers the
 * place of that item in it (or a real random number when the item is not on that page).
 */
async function steerRandomPickTo(page: Page, title: string): Promise<void> {
  await page.addInitScript(() => {
    const random = Math.random.bind(Math);
    Math.random = () => (window as unknown as { __e2ePick?: number }).__e2ePick ?? random();
  });
  await page.route(
    (url) => url.pathname === apiPaths.localNews,
    async (route) => {
      const response = await route.fetch();
      const listed = response.ok() ? ((await response.json()) as NewsItem[]) : [];
      const at = listed.findIndex((i) => i.title === title);
      const pick = at < 0 ? null : (at + 0.5) / listed.length;
      try {
        await page.evaluate((p) => ((window as unknown as { __e2ePick?: number }).__e2ePick = p ?? undefined), pick);
        await route.fulfill({ response });
      } catch {
        // The page that asked is gone (navigated away or closed): nobody waits for this answer.
      }
    },
  );
}

test('adding a news item with two files, then seeing its title on /localnews', async ({ page, request, user }) => {
  const title = `Street party ${randomUUID().slice(0, 8)}`;
  await signIn(page, user);
  await steerRandomPickTo(page, title);
  await page.goto(appRoutes.addLocalNews);
  await field(page, 'title').fill(title);
  await field(page, 'content').fill('Music, food and a bring-your-own-chair policy.');
  await field(page, 'files').setInputFiles(files);

  const answer = page.waitForResponse(
    (res) => res.url().endsWith(apiPaths.localNewsNew) && res.request().method() === 'POST',
  );
  await submitButton(page).click();
  expect((await answer).status()).toBe(201);
  const { id } = (await (await answer).json()) as NewsItem;
  // The app goes on to /localnews by itself.
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.localNews);

  // Stored with both files: check through the API as the same user.
  const { body } = await loginViaApi(request, user.email, user.password);
  const stored = await request.get(newsItemPath(id), { headers: { Authorization: `Bearer ${body.access}` } });
  expect(stored.status()).toBe(200);
  const item = (await stored.json()) as NewsItem;
  expect(item.title).toBe(title);
  expect(item.author.toLowerCase()).toBe(user.email.toLowerCase());
  expect(item.files.map((f) => f.name).sort()).toEqual(['notes.txt', 'pixel.png']);
  const notes = item.files.find((f) => f.name === 'notes.txt')!;
  expect(notes.size).toBe(files[0]!.buffer.length);
  const download = await request.get(notes.url);
  expect(download.status()).toBe(200);
  expect(await download.body()).toEqual(files[0]!.buffer);

  // Its title on /localnews (the pick steered to it, see above), linking to its page. Should it not
  // be on the newest page just now, `refresh this page` fetches the list again.
  const refresh = page.getByRole('button', { name: texts.refreshThisPage, exact: true });
  await expect(refresh).toBeVisible();
  const shown = page.getByRole('main').getByRole('link', { name: title, exact: true });
  await expect(async () => {
    if (!(await shown.isVisible())) await refresh.click();
    await expect(shown).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(shown).toHaveAttribute('href', newsItemRoute(id));
});
