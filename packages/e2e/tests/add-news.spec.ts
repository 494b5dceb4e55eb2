import { randomUUID } from 'node:crypto';
import { apiPaths, appRoutes, texts, type NewsItem } from '@hello/contract';
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

test('adding a news item with two files, then seeing its title on /localnews', async ({ page, request, user }) => {
  const title = `Street party ${randomUUID().slice(0, 8)}`;
  await signIn(page, user);
  await page.goto(appRoutes.addLocalNews);
  await field(page, 'title').fill(title);
  await field(page, 'content').fill('Music, food and a bring-your-own-chair policy.');
  await field(page, 'files').setInputFiles(files);

  const answer = page.waitForResponse((res) => res.url().endsWith(apiPaths.localNewsNew) && res.request().method() === 'POST');
  await submitButton(page).click();
  expect((await answer).status()).toBe(201);

  // Stored with both files: check through the API as the same user.
  const { body } = await loginViaApi(request, user.email, user.password);
  const list = await request.get(apiPaths.localNews, { headers: { Authorization: `Bearer ${body.access}` } });
  expect(list.status()).toBe(200);
  const items = (await list.json()) as NewsItem[];
  const item = items.find((i) => i.title === title);
  expect(item, `item "${title}" in the list`).toBeDefined();
  expect(item!.author.toLowerCase()).toBe(user.email.toLowerCase());
  expect(item!.files.map((f) => f.name).sort()).toEqual(['notes.txt', 'pixel.png']);
  const notes = item!.files.find((f) => f.name === 'notes.txt')!;
  expect(notes.size).toBe(files[0]!.buffer.length);
  const download = await request.get(notes.url);
  expect(download.status()).toBe(200);
  expect(await download.body()).toEqual(files[0]!.buffer);

  // The page shows one random item's title; this test is the only one adding news, so on a fresh
  // server ours is the only item. Should others exist, `refresh this page` picks again.
  await page.goto(appRoutes.localNews);
  const refresh = page.getByRole('button', { name: texts.refreshThisPage, exact: true });
  await expect(refresh).toBeVisible();
  await expect(async () => {
    if (!(await page.getByText(title, { exact: true }).isVisible())) {
      await refresh.click();
    }
    await expect(page.getByText(title, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
});
