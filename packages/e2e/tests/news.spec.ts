import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  apiPaths,
  appRoutes,
  editNewsRoute,
  newsItemPath,
  newsItemRoute,
  newsLimits,
  texts,
  type NewsItem,
} from '@hello/contract';
import {
  accessTokenViaApi,
  expect,
  field,
  getNewsViaApi,
  makePng,
  postNewsViaApi,
  registerViaApi,
  signIn,
  submitButton,
  test,
  textFile,
  type UploadFile,
} from './fixtures';

/**
 * The news pages: /news (every item, a page at a time), /news/{id} (one item, with Edit and Delete
 * for its author), /news/{id}/edit, and the link from /localnews's random item to its page.
 * Items are added through the API as their author; the list is shared by every test on the server,
 * so each test finds its own items by their (unique) titles.
 */

const tag = () => randomUUID().slice(0, 8);

/** A real 24×16 PNG (a colour gradient): big enough to see that the preview drew it. */
const POSTER: UploadFile = {
  name: 'poster.png',
  mimeType: 'image/png',
  buffer: makePng(24, 16, (x, y) => [40 + x * 8, 90 + y * 8, 200]),
};

const newsList = (page: Page) => page.getByRole('list', { name: 'News, newest first' });
const olderButton = (page: Page) => page.getByRole('button', { name: 'Older items', exact: true });
const pageHeading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const attachmentLinks = (page: Page) => page.getByRole('region', { name: 'Attachments' }).getByRole('link');

interface Row {
  id: number;
  href: string | null;
  title: string;
  createdAt: string;
}

/** The rows /news shows, top to bottom. */
function readRows(page: Page): Promise<Row[]> {
  return newsList(page)
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((li) => {
        const link = li.querySelector('a[data-news-id]');
        return {
          id: Number(link?.getAttribute('data-news-id')),
          href: link?.getAttribute('href') ?? null,
          title: link?.textContent ?? '',
          createdAt: li.querySelector('time')?.getAttribute('datetime') ?? '',
        };
      }),
    );
}

/** Newest first, as the server orders the list: by `created_at` (ISO text), then by id, both descending. */
function expectNewestFirst(rows: Row[]): void {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    expect(
      a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id),
      `row ${i - 1} (${a.createdAt} #${a.id}) before row ${i} (${b.createdAt} #${b.id})`,
    ).toBe(true);
  }
}

/** Presses `Older items` and waits until the next page is appended. */
async function showOlder(page: Page): Promise<void> {
  const before = await newsList(page).getByRole('listitem').count();
  await olderButton(page).click();
  await expect.poll(() => newsList(page).getByRole('listitem').count()).toBeGreaterThan(before);
}

/**
 * Opens /news and follows the item's link, as a reader would: further down the list if need be
 * (another test may have added a page of newer items meanwhile).
 */
async function openFromList(page: Page, item: NewsItem): Promise<void> {
  await page.goto(appRoutes.news);
  await expect(newsList(page)).toBeVisible();
  const link = newsList(page).getByRole('link', { name: item.title, exact: true });
  for (let pages = 1; (await link.count()) === 0 && pages < 5; pages++) await showOlder(page);
  await link.click();
  await expect(page).toHaveURL((url) => url.pathname === newsItemRoute(item.id));
  await expect(pageHeading(page, item.title)).toBeVisible();
}

async function deleteViaApi(request: APIRequestContext, access: string, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids
        .slice(i, i + 8)
        .map((id) => request.delete(newsItemPath(id), { headers: { Authorization: `Bearer ${access}` } })),
    );
  }
}

test('browse: /news lists the newest first; Older items appends the next page, without duplicates, until the last', async ({
  page,
  request,
  user,
}) => {
  const mark = `Browse ${tag()}`;
  const access = await accessTokenViaApi(request, user);
  const seeded: NewsItem[] = [];
  try {
    // One more than a page, a few at a time, then one last item: the newest of ours.
    const count = newsLimits.defaultPageSize + 1;
    for (let start = 0; start < count; start += 8) {
      const batch = Array.from({ length: Math.min(8, count - start) }, (_, k) =>
        postNewsViaApi(request, user, {
          title: `${mark} #${start + k + 1}`,
          content: 'Filler.',
          files: [textFile('filler.txt')],
        }),
      );
      seeded.push(...(await Promise.all(batch)));
    }
    const newest = await postNewsViaApi(request, user, {
      title: `${mark} newest`,
      content: 'Last in.',
      files: [textFile('last.txt')],
    });
    seeded.push(newest);

    await signIn(page, user);
    const firstPageAnswer = page.waitForResponse((res) => new URL(res.url()).pathname === apiPaths.localNews);
    await page.goto(appRoutes.news);
    expect((await firstPageAnswer).request().headers().authorization).toMatch(/^Bearer /);
    await expect(pageHeading(page, 'All news')).toBeVisible();
    const rows = newsList(page).getByRole('listitem');
    await expect(rows).toHaveCount(newsLimits.defaultPageSize);

    const firstPage = await readRows(page);
    expectNewestFirst(firstPage);
    for (const row of firstPage) expect(row.href).toBe(newsItemRoute(row.id));
    // Ours is on top of the ones we added before it; only items added after it may stand above it.
    const ours = firstPage.filter((row) => row.title.startsWith(`${mark} `));
    expect(ours[0]?.id).toBe(newest.id);
    expect(ours[0]?.title).toBe(newest.title);
    expect(firstPage[0]!.createdAt >= newest.created_at).toBe(true);
    await expect(page.getByText(`The newest ${newsLimits.defaultPageSize} items`, { exact: true })).toBeVisible();

    let shown = firstPage;
    for (let pages = 1; await olderButton(page).isVisible(); pages++) {
      expect(pages, 'pages before the last').toBeLessThan(5);
      await showOlder(page);
      const now = await readRows(page);
      // Appended: what was shown stays, in place.
      expect(now.slice(0, shown.length)).toEqual(shown);
      // Focus moves to the first new item, where reading goes on.
      await expect(page.locator(`[data-news-id="${now[shown.length]!.id}"]`)).toBeFocused();
      shown = now;
    }

    const ids = shown.map((row) => row.id);
    expect(new Set(ids).size, 'no item twice').toBe(ids.length);
    expect(shown.length).toBeGreaterThan(newsLimits.defaultPageSize);
    expectNewestFirst(shown);
    for (const item of seeded) expect(ids, `${item.title} listed`).toContain(item.id);
    // The last page: no button, and the count says it is all.
    await expect(olderButton(page)).toHaveCount(0);
    await expect(page.getByText(`${shown.length} items in all`, { exact: true })).toBeVisible();
  } finally {
    // A page of items would push other tests' items off the newest page (/localnews picks from it).
    await deleteViaApi(
      request,
      access,
      seeded.map((item) => item.id),
    );
  }
});

test('an item opened from far down the list by keyboard shows its page from the top, focus on its title', async ({
  page,
  request,
  user,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const mark = `Scrolled ${tag()}`;
  const access = await accessTokenViaApi(request, user);
  const seeded: NewsItem[] = [];
  try {
    // The oldest of ours, far down the first page, and long: its page could be shown scrolled down.
    const long = 'A long report.\n\n'.repeat(120);
    const target = await postNewsViaApi(request, user, {
      title: `${mark} long`,
      content: long,
      files: [textFile('x.txt')],
    });
    seeded.push(target);
    for (let i = 0; i < 12; i += 1)
      seeded.push(
        await postNewsViaApi(request, user, { title: `${mark} #${i}`, content: 'x', files: [textFile('x.txt')] }),
      );
    await signIn(page, user);
    await page.goto(appRoutes.news);
    const link = newsList(page).getByRole('link', { name: target.title, exact: true });
    await expect(newsList(page)).toBeVisible();
    // Other tests add items meanwhile: further down the list if need be.
    for (let pages = 1; (await link.count()) === 0 && pages < 5; pages++) await showOlder(page);
    await link.focus(); // scrolled down to it, as a keyboard user tabbing there would be
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.keyboard.press('Enter');
    const heading = pageHeading(page, target.title);
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
  } finally {
    await deleteViaApi(
      request,
      access,
      seeded.map((item) => item.id),
    );
  }
});

test('read: an item opened from the list shows its title, author, date, text as text, links, image preview and download', async ({
  page,
  request,
  user,
}) => {
  const title = `Harbour festival ${tag()}`;
  const address = 'https://example.com/festival?day=2';
  const markup = '<img src="x" onerror="window.__injected = true"><b>Not bold</b>';
  const programme = textFile('programme.txt', 'Saturday: boats. Sunday: music.\n');
  const item = await postNewsViaApi(request, user, {
    title,
    content: [
      `Boats, music and food along the quay. Programme: ${address}.`,
      '',
      markup,
      'A second line of the same paragraph.',
    ].join('\n'),
    files: [POSTER, programme],
  });

  await signIn(page, user);
  await openFromList(page, item);
  await expect(page).toHaveTitle(`${title} · Hello all!`);
  const article = page.getByRole('article');
  await expect(article.locator('.news-author')).toHaveText(user.email);
  const shownDate = await page.evaluate(
    (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    item.created_at,
  );
  await expect(article.locator(`time[datetime="${item.created_at}"]`)).toHaveText(shownDate);
  expect(shownDate).toContain(String(new Date(item.created_at).getFullYear()));

  // Two paragraphs; the second keeps its line break.
  const paragraphs = article.locator('.news-content p');
  await expect(paragraphs).toHaveCount(2);
  await expect(paragraphs.nth(0)).toHaveText(`Boats, music and food along the quay. Programme: ${address}.`);
  await expect(paragraphs.nth(1)).toHaveText(`${markup}A second line of the same paragraph.`);
  await expect(paragraphs.nth(1).locator('br')).toHaveCount(1);

  // The address (without the full stop after it) is a link to a new tab that passes nothing on.
  const link = paragraphs.nth(0).getByRole('link');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveText(address);
  await expect(link).toHaveAttribute('href', address);
  await expect(link).toHaveAttribute('target', '_blank');
  expect((await link.getAttribute('rel'))?.split(/\s+/)).toContain('noopener');

  // Markup in the content is text: no element made from it, nothing ran.
  await expect(article.locator('.news-content img, .news-content b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();

  // The picture is previewed, and the browser really decoded it.
  const preview = article.locator('img');
  await expect(preview).toHaveCount(1);
  await expect(preview).toHaveAttribute('alt', POSTER.name);
  await preview.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      preview.evaluate((img: HTMLImageElement) => (img.complete ? [img.naturalWidth, img.naturalHeight] : [0, 0])),
    )
    .toEqual([24, 16]);

  // Both files are download links; the text file downloads with its name and bytes.
  await expect(attachmentLinks(page)).toHaveText([POSTER.name, programme.name]);
  const download = attachmentLinks(page).filter({ hasText: programme.name });
  await expect(download).toHaveAttribute('download', programme.name);
  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe(programme.name);
  expect(await readFile((await file.path())!)).toEqual(programme.buffer);
});

test('edit: the author changes the title, removes one file and adds another', async ({ page, request, user }) => {
  const title = `Clean-up day ${tag()}`;
  const newTitle = `${title} (moved to Sunday)`;
  const item = await postNewsViaApi(request, user, {
    title,
    content: 'Bring gloves.',
    files: [textFile('route.txt'), textFile('old-map.txt')],
  });
  const removed = item.files.find((f) => f.name === 'old-map.txt')!;
  const kept = item.files.find((f) => f.name === 'route.txt')!;
  expect((await request.get(removed.url)).status(), 'the link works before the edit').toBe(200);

  await signIn(page, user);
  const before = new URL(page.url()).pathname;
  await page.goto(newsItemRoute(item.id));
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === editNewsRoute(item.id));
  await expect(field(page, 'title')).toHaveValue(title);
  await expect(field(page, 'content')).toHaveValue('Bring gloves.');

  await field(page, 'title').fill(newTitle);
  await page.getByRole('checkbox', { name: 'old-map.txt', exact: true }).check();
  await field(page, 'files').setInputFiles([textFile('new-map.txt')]);
  const saved = page.waitForResponse(
    (res) => new URL(res.url()).pathname === newsItemPath(item.id) && res.request().method() === 'PATCH',
  );
  await submitButton(page).click();
  const answer = await saved;
  expect(answer.status(), await answer.text()).toBe(200);
  expect(answer.request().headers().authorization).toMatch(/^Bearer /);

  await expect(page).toHaveURL((url) => url.pathname === newsItemRoute(item.id));
  await expect(pageHeading(page, newTitle)).toBeVisible();
  await expect(attachmentLinks(page)).toHaveCount(2);
  expect((await attachmentLinks(page).allTextContents()).sort()).toEqual(['new-map.txt', 'route.txt']);

  // Stored so, and the removed file's old link is gone while the kept one's still works.
  const { status, item: stored } = await getNewsViaApi(request, await accessTokenViaApi(request, user), item.id);
  expect(status).toBe(200);
  expect(stored!.title).toBe(newTitle);
  expect(stored!.content).toBe('Bring gloves.');
  expect(stored!.files.map((f) => f.name).sort()).toEqual(['new-map.txt', 'route.txt']);
  expect((await request.get(removed.url)).status()).toBe(404);
  expect((await request.get(kept.url)).status()).toBe(200);

  // Saved, the app went back to the item's page it was opened from (the form is now only a Forward
  // entry): one Back leads to where the visit began, past neither the form sent nor a second copy
  // of the item.
  expect(before).not.toBe(newsItemRoute(item.id));
  await page.goBack();
  await expect(page).toHaveURL((url) => url.pathname === before);
});

test('delete: the author is asked first; Cancel keeps the item, confirming deletes it', async ({
  page,
  request,
  user,
}) => {
  const title = `Lost umbrella ${tag()}`;
  const item = await postNewsViaApi(request, user, {
    title,
    content: 'Blue, with ducks.',
    files: [textFile('photo-note.txt')],
  });
  const access = await accessTokenViaApi(request, user);
  const deletes: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'DELETE') deletes.push(req.url());
  });

  await signIn(page, user);
  await openFromList(page, item);
  const deleteButton = page.getByRole('button', { name: 'Delete', exact: true });
  const question = page.getByText('Delete this item and its 1 file? This cannot be undone.', { exact: true });
  const confirm = page.getByRole('button', { name: 'Yes, delete it', exact: true });
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true });

  await deleteButton.click();
  await expect(question).toBeVisible();
  await expect(cancel).toBeFocused();
  await cancel.click();
  await expect(question).toHaveCount(0);
  await expect(confirm).toHaveCount(0);
  await expect(deleteButton).toBeFocused();
  expect(deletes).toEqual([]);
  expect((await getNewsViaApi(request, access, item.id)).status).toBe(200);

  await deleteButton.click();
  const deleted = page.waitForResponse(
    (res) => new URL(res.url()).pathname === newsItemPath(item.id) && res.request().method() === 'DELETE',
  );
  await confirm.click();
  expect((await deleted).status()).toBe(204);
  await expect(page).toHaveURL((url) => url.pathname === appRoutes.news);
  await expect(page.getByText(`“${title}” was deleted.`, { exact: true })).toBeVisible();
  // The list, loaded again, no longer has it.
  await expect(newsList(page).or(page.getByText(/^No news yet\./))).toBeVisible();
  await expect(page.getByRole('link', { name: title, exact: true })).toHaveCount(0);
  expect((await getNewsViaApi(request, access, item.id)).status).toBe(404);
});

test('someone else: no Edit or Delete, the edit page says only the author may, and the API answers 403', async ({
  page,
  request,
  user,
}) => {
  const title = `Choir rehearsal ${tag()}`;
  const item = await postNewsViaApi(request, user, {
    title,
    content: 'Thursdays at seven.',
    files: [textFile('songs.txt')],
  });
  const other = await registerViaApi(request);

  await signIn(page, other);
  await page.goto(newsItemRoute(item.id));
  await expect(pageHeading(page, title)).toBeVisible();
  await expect(page.getByRole('article').locator('.news-author')).toHaveText(user.email);
  // The page has found out who is signed in (the header says so) before deciding on the author's buttons.
  await expect(page.getByText(`Signed in as ${other.email}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  await page.goto(editNewsRoute(item.id));
  await expect(page.getByText('Only the author can edit this item.', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `Back to “${title}”`, exact: true })).toHaveAttribute(
    'href',
    newsItemRoute(item.id),
  );
  await expect(field(page, 'title')).toHaveCount(0);
  await expect(page.locator('form')).toHaveCount(0);
  await expect(submitButton(page)).toHaveCount(0);

  // The server refuses them too, whatever the page shows.
  const headers = { Authorization: `Bearer ${await accessTokenViaApi(request, other)}` };
  const patch = await request.patch(newsItemPath(item.id), { headers, data: { title: 'Taken over' } });
  expect(patch.status(), await patch.text()).toBe(403);
  const remove = await request.delete(newsItemPath(item.id), { headers });
  expect(remove.status(), await remove.text()).toBe(403);
  const { status, item: stored } = await getNewsViaApi(request, await accessTokenViaApi(request, user), item.id);
  expect(status).toBe(200);
  expect(stored!.title).toBe(title);
});

test("/localnews: the random item's title links to its page", async ({ page, request, user }) => {
  await postNewsViaApi(request, user, {
    title: `Bakery reopens ${tag()}`,
    content: 'Fresh bread from six.',
    files: [textFile('hours.txt')],
  });
  await signIn(page, user);
  await page.goto(appRoutes.localNews);
  const link = page.getByRole('main').getByRole('article').getByRole('heading').getByRole('link');
  await expect(link).toBeVisible();
  const shownTitle = (await link.textContent()) ?? '';
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/news\/[1-9][0-9]*$/);
  expect(shownTitle).not.toBe('');

  await link.click();
  await expect(page).toHaveURL((url) => url.pathname === href);
  await expect(pageHeading(page, shownTitle)).toBeVisible();
  // That page is the picked item's: the server has that title under that id.
  const { item } = await getNewsViaApi(request, await accessTokenViaApi(request, user), Number(href.split('/').pop()));
  expect(item?.title).toBe(shownTitle);
});

test('a malformed id (/news/abc, /news/07, /news/0) is the 404 page with status 404; a well-formed one with no item says so', async ({
  page,
  user,
}) => {
  for (const path of ['/news/abc', '/news/abc/edit', '/news/07', '/news/07/edit', '/news/0']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByText(texts.header, { exact: true })).toBeVisible();
    await expect(page.getByText(texts.notFound, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: /news item/i })).toHaveCount(0);
  }

  // A path of the table: the app answers 200, and the page (asking the API, 404) says the item is not there.
  await signIn(page, user);
  for (const path of [newsItemRoute(999_999_999), editNewsRoute(999_999_999)]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await expect(pageHeading(page, 'News item not found')).toBeVisible();
    await expect(page.getByText('This news item does not exist (or was deleted).', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See all news', exact: true })).toHaveAttribute('href', appRoutes.news);
    await expect(page.getByText(texts.notFound)).toHaveCount(0);
  }
});
