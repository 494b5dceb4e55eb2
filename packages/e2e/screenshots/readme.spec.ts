import type { APIRequestContext, Page } from '@playwright/test';
import { apiPaths, appRoutes, newsItemRoute, type NewsItem } from '@hello/contract';
import {
  expect,
  field,
  loginViaApi,
  loginViaUi,
  makePng,
  PASSWORD,
  PDF_READY_TIMEOUT,
  postNewsViaApi,
  registerViaApi,
  signIn,
  submitButton,
  test,
  textFile,
  type User,
} from '../tests/fixtures';
import { expectNoSidewaysScroll, shoot } from './shoot';

test('home', async ({ page }) => {
  await page.goto(appRoutes.home);
  await expect(page.getByRole('heading', { name: /welcome/i })).toBeVisible();
  await shoot(page, 'home');
});

test('login with an error', async ({ page }) => {
  await page.goto(appRoutes.login);
  await loginViaUi(page, 'someone@example.com', 'Wrong-Password-1');
  await expect(page.getByRole('alert')).toBeVisible();
  await shoot(page, 'login-error');
});

// Fixed addresses (each run has a fresh server) keep the pictures the same from run to run.
test('local news', async ({ page, request }) => {
  const user = await registerViaApi(request, 'newsroom@example.com');
  const res = await request.post(apiPaths.localNewsNew, {
    headers: { Authorization: `Token ${user.token}` },
    multipart: {
      title: 'Farmers market moves to the old station square',
      content: 'From next Saturday the market opens at eight, with twice the stalls.',
      files: { name: 'map.txt', mimeType: 'text/plain', buffer: Buffer.from('Station square, north side.\n') },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signIn(page, user);
  await page.goto(appRoutes.localNews);
  await expect(page.getByText('Farmers market moves to the old station square')).toBeVisible();
  await shoot(page, 'local-news');
});

/** Opens /pdfviewer and waits until page 1 is drawn and its text laid over it. */
async function openPdfViewer(page: Page): Promise<void> {
  await page.goto(appRoutes.pdfViewer);
  await expect(page.getByText(/^1 \/ \d+$/)).toBeVisible({ timeout: PDF_READY_TIMEOUT });
  await expect(page.locator('canvas[data-rendered-scale]')).toHaveCount(1, { timeout: PDF_READY_TIMEOUT });
  await expect
    .poll(() =>
      page
        .locator('canvas')
        .first()
        .evaluate((c: HTMLCanvasElement) => {
          const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i]! < 200) n++;
          return n;
        }),
    )
    .toBeGreaterThan(200);
  await expect(page.locator('.textLayer span').first()).toBeAttached();
}

/** Searches the viewer's PDF for `word`: the first hit is marked on page 1, near its top. */
async function searchPdf(page: Page, word: string): Promise<void> {
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(word);
  await box.press('Enter');
  await expect(page.getByRole('search').locator('[aria-live="polite"]')).toHaveText(/^Hit 1 of \d+$/);
  await expect(page.locator('.textLayer mark.highlight.selected').first()).toBeVisible();
}

test.describe('pdf viewer on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('pdf viewer', async ({ page }) => {
    await openPdfViewer(page);
    await searchPdf(page, 'autumn');
    await shoot(page, 'pdf-viewer');
  });
});

test('profile', async ({ page, request }) => {
  const user = await registerViaApi(request, 'ada@example.com');
  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  await field(page, 'first_name').fill('Ada');
  await field(page, 'last_name').fill('Lovelace');
  await field(page, 'user_profile.website').fill('https://example.com/ada');
  const saved = page.waitForResponse((r) => r.url().endsWith(apiPaths.userProfile) && r.request().method() === 'POST');
  await submitButton(page).click();
  expect((await saved).status()).toBe(200);
  await shoot(page, 'profile');
});

/**
 * An account: logged into when an earlier test (or run of one test) registered it, else registered
 * now. Login comes first: registering a taken address answers like a new one would (no enumeration).
 */
async function account(request: APIRequestContext, email: string): Promise<User> {
  const { status, body } = await loginViaApi(request, email, PASSWORD);
  if (status === 200) return { email, password: PASSWORD, token: body.refresh! };
  return registerViaApi(request, email);
}

/**
 * A 480×200 panorama for the item page: sky, sun, hills and a field. Wide rather than tall, so the
 * whole item (text, picture and both attachments) fits in the 1280×800 and the 390×844 pictures.
 */
const fairPhoto = makePng(480, 200, (x, y) => {
  const hill = 125 + 22 * Math.sin(x / 55) + 10 * Math.sin(x / 17);
  if ((x - 370) ** 2 + (y - 52) ** 2 < 26 ** 2) return [250, 204, 84];
  if (y > 170) return [96 + ((x >> 3) % 2) * 10, 150, 70];
  if (y > hill) return [62, 128, 84];
  return [120 + y / 2.5, 180 + y / 4, 235];
});

/**
 * The news the news pages show: the farmers market item of `local news` (added here if that test did
 * not run) and three more, the newest with a picture. Added once; answers the item with the picture.
 */
async function seedNews(request: APIRequestContext): Promise<{ author: User; photoItem: NewsItem }> {
  const newsroom = await account(request, 'newsroom@example.com');
  const author = await account(request, 'reporter@example.com');
  const access = (await loginViaApi(request, author.email, PASSWORD)).body.access!;
  const list = await request.get(apiPaths.localNews, { headers: { Authorization: `Bearer ${access}` } });
  expect(list.status()).toBe(200);
  const have = (await list.json()) as NewsItem[];
  const add = async (
    user: User,
    title: string,
    content: string,
    files: Parameters<typeof postNewsViaApi>[2]['files'],
  ) => have.find((item) => item.title === title) ?? (await postNewsViaApi(request, user, { title, content, files }));

  await add(
    newsroom,
    'Farmers market moves to the old station square',
    'From next Saturday the market opens at eight, with twice the stalls.',
    [textFile('map.txt', 'Station square, north side.\n')],
  );
  await add(newsroom, 'Library extends its opening hours', 'Open until nine on weekdays from the first of the month.', [
    textFile('hours.txt', 'Mon-Fri 9-21, Sat 10-16.\n'),
  ]);
  await add(
    author,
    'Night bus 12 runs every twenty minutes',
    'A trial until the end of the year; tell the council what you think.',
    [
      textFile('timetable.txt', 'Every 20 minutes from 23:00 to 05:00.\n'),
      textFile('stops.txt', 'Station, Market, Harbour, Hospital.\n'),
    ],
  );
  const photoItem = await add(
    author,
    'Spring fair: photos from the square',
    [
      'Thanks to everyone who came! More than forty stalls, a brass band and the first sunny Sunday of the year.',
      '',
      'All the photos are on the council site: https://example.com/spring-fair',
      'Next fair: the second weekend of September.',
    ].join('\n'),
    [
      { name: 'spring-fair.png', mimeType: 'image/png', buffer: fairPhoto },
      textFile('stalls.txt', 'Forty-two stalls.\n'),
    ],
  );
  return { author, photoItem };
}

async function openNewsList(page: Page, request: APIRequestContext): Promise<void> {
  const { author } = await seedNews(request);
  await signIn(page, author);
  await page.goto(appRoutes.news);
  await expect(page.getByRole('link', { name: 'Spring fair: photos from the square' })).toBeVisible();
}

async function openPhotoItem(page: Page, request: APIRequestContext): Promise<void> {
  const { author, photoItem } = await seedNews(request);
  await signIn(page, author);
  await page.goto(newsItemRoute(photoItem.id));
  await expect(page.getByRole('heading', { name: photoItem.title })).toBeVisible();
  // The author's buttons come once the page knows who is signed in: wait for them, so they are in the picture.
  await expect(page.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
  const preview = page.getByRole('img', { name: 'spring-fair.png' });
  await preview.scrollIntoViewIfNeeded();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
}

/** The whole item, down to its last attachment, is in the picture: none of it is cut off at the bottom. */
async function expectItemFitsOnScreen(page: Page): Promise<void> {
  const last = page.getByRole('region', { name: 'Attachments' }).getByRole('listitem').last();
  await expect(last).toContainText('stalls.txt');
  const { bottom, innerHeight } = await last.evaluate((el) => {
    window.scrollTo(0, 0);
    return { bottom: el.getBoundingClientRect().bottom, innerHeight: window.innerHeight };
  });
  expect(bottom, 'bottom of the last attachment').toBeLessThanOrEqual(innerHeight);
}

test.describe('news pages', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('all news', async ({ page, request }) => {
    await openNewsList(page, request);
    await shoot(page, 'news');
  });

  test('news item with a picture', async ({ page, request }) => {
    await openPhotoItem(page, request);
    await expectItemFitsOnScreen(page);
    await shoot(page, 'news-item');
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });

  test('login on a phone', async ({ page }) => {
    await page.goto(appRoutes.login);
    await expect(field(page, 'email')).toBeVisible();
    await shoot(page, 'login-phone');
  });
});

test.describe('news on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('all news on a phone', async ({ page, request }) => {
    await openNewsList(page, request);
    await expectNoSidewaysScroll(page);
    await shoot(page, 'news-phone');
  });

  test('news item on a phone', async ({ page, request }) => {
    await openPhotoItem(page, request);
    await expectNoSidewaysScroll(page);
    await expectItemFitsOnScreen(page);
    await shoot(page, 'news-item-phone');
  });
});

test.describe('pdf viewer on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('pdf viewer on a phone', async ({ page }) => {
    await openPdfViewer(page);
    // Narrower than the page at scale 1: it starts at fit width.
    await expect(page.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');
    await searchPdf(page, 'autumn');
    await expectNoSidewaysScroll(page);
    await shoot(page, 'pdf-viewer-phone');
  });
});
