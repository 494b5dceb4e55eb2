import type { APIRequestContext, Page } from '@playwright/test';
import { appRoutes, editNewsRoute, newsItemRoute, texts } from '@hello/contract';
import {
  expect,
  field,
  PDF_READY_TIMEOUT,
  postNewsViaApi,
  resetButton,
  submitButton,
  textFile,
  type User,
} from '../tests/fixtures';

/**
 * Every route of the specification's table, with what shows it is ready: routes.spec.ts checks each
 * answers 200 under the `Hello all!` header and shows its key text or controls (form pages: the
 * contract's field names, each with a bound label, and the Submit / Reset pair); accessibility.spec.ts
 * runs axe and the tap-target check on each. A route added to the contract fails routes.spec.ts
 * until it is added here, so every later route is covered by both.
 */

async function expectForm(page: Page, names: string[]): Promise<void> {
  for (const name of names) {
    const control = field(page, name);
    await expect(control, `control named ${name}`).toHaveCount(1);
    await expect(control).toBeVisible();
    const labels = await control.evaluate((el) =>
      Array.from((el as HTMLInputElement).labels ?? []).map((label) => label.textContent?.trim() ?? ''),
    );
    expect(labels.filter(Boolean), `a visible <label> bound to ${name}`).not.toHaveLength(0);
  }
  await expect(submitButton(page)).toBeVisible();
  await expect(resetButton(page)).toBeVisible();
}

export interface RouteCase {
  path: string;
  signedIn?: boolean;
  /** A route with an id (`/news/:id`): adds what it shows as `user` (the signed-in one) and answers the path to open. */
  at?: (request: APIRequestContext, user: User) => Promise<string>;
  check: (page: Page) => Promise<void>;
}

const ROUTE_ITEM_TITLE = 'Route check: an item of ours';
const addItem = (request: APIRequestContext, user: User) =>
  postNewsViaApi(request, user, {
    title: ROUTE_ITEM_TITLE,
    content: 'Seen on its own page.',
    files: [textFile('route.txt')],
  });

export const routes: RouteCase[] = [
  {
    path: appRoutes.home,
    check: async (page) => {
      await expect(page.getByRole('heading', { name: /welcome/i })).toBeVisible();
    },
  },
  {
    path: appRoutes.about,
    check: async (page) => {
      await expect(page.getByRole('main').locator('p').first()).toHaveText(/\w{3,}/);
    },
  },
  {
    path: appRoutes.pdfViewer,
    check: async (page) => {
      await expect(page.getByText(/^1 \/ \d+$/)).toBeVisible({ timeout: PDF_READY_TIMEOUT });
      // .first(): pdf.js's text layer adds a hidden measuring canvas to <body> while it lays out text.
      await expect(page.locator('canvas').first()).toBeVisible();
      await expect(page.getByRole('button', { name: texts.prev, exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: texts.next, exact: true })).toBeVisible();
    },
  },
  {
    path: appRoutes.downloadPdf,
    check: async (page) => {
      await expect(page.getByRole('main').getByRole('button')).toHaveCount(1);
    },
  },
  {
    path: appRoutes.printPdf,
    check: async (page) => {
      await expect(page.getByRole('button', { name: texts.clickToPrint, exact: true })).toBeVisible();
    },
  },
  {
    path: appRoutes.printCurrentPage,
    check: async (page) => {
      await expect(page.getByRole('main').getByRole('article')).toContainText(/sample/i);
    },
  },
  {
    path: appRoutes.localNews,
    signedIn: true,
    check: async (page) => {
      await expect(page.getByRole('main').locator(`a[href="${appRoutes.changePassword}"]`)).toBeVisible();
      await expect(page.getByRole('button', { name: texts.refreshThisPage, exact: true })).toBeVisible();
    },
  },
  { path: appRoutes.login, check: (page) => expectForm(page, ['email', 'password']) },
  {
    path: appRoutes.logoutToken,
    check: async (page) => {
      await expect(page.getByRole('button', { name: texts.logout, exact: true })).toBeVisible();
    },
  },
  {
    path: appRoutes.logoutJwt,
    check: async (page) => {
      await expect(page.getByRole('button', { name: texts.logout, exact: true })).toBeVisible();
    },
  },
  { path: appRoutes.addLocalNews, signedIn: true, check: (page) => expectForm(page, ['title', 'content', 'files']) },
  {
    path: appRoutes.changePassword,
    signedIn: true,
    check: (page) => expectForm(page, ['old_password', 'new_password', 'confirm']),
  },
  { path: appRoutes.resetPasswordRequest, check: (page) => expectForm(page, ['email']) },
  {
    path: appRoutes.resetPasswordRequestConfirmed,
    check: async (page) => {
      await expect(page.getByText(texts.resetRequestSent, { exact: true })).toBeVisible();
    },
  },
  {
    // Without a token there is nothing to check: the page says so (the valid case is in reset-password.spec.ts).
    path: appRoutes.resetNewPassword,
    check: async (page) => {
      await expect(page.getByText(texts.tokenInvalid, { exact: true })).toBeVisible();
    },
  },
  { path: appRoutes.register, check: (page) => expectForm(page, ['email', 'password1', 'password2']) },
  {
    path: appRoutes.userProfile,
    signedIn: true,
    check: async (page) => {
      await expectForm(page, [
        'first_name',
        'last_name',
        'user_profile.telephone',
        'user_profile.mobile',
        'user_profile.website',
      ]);
    },
  },
  {
    path: appRoutes.news,
    signedIn: true,
    check: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'All news', exact: true })).toBeVisible();
      await expect(
        page.getByRole('list', { name: 'News, newest first' }).or(page.getByText(/^No news yet\./)),
      ).toBeVisible();
    },
  },
  {
    path: appRoutes.newsItem,
    signedIn: true,
    at: async (request, user) => newsItemRoute((await addItem(request, user)).id),
    check: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: ROUTE_ITEM_TITLE, exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: 'route.txt', exact: true })).toBeVisible();
      // The author's own item: Edit and Delete.
      await expect(page.getByRole('link', { name: 'Edit', exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
    },
  },
  {
    path: appRoutes.editNews,
    signedIn: true,
    at: async (request, user) => editNewsRoute((await addItem(request, user)).id),
    check: (page) => expectForm(page, ['title', 'content', 'files', 'remove_files']),
  },
  {
    path: appRoutes.sessions,
    signedIn: true,
    check: async (page) => {
      const list = page.getByRole('list', { name: 'Signed-in devices' });
      await expect(list.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
    },
  },
  { path: appRoutes.changeEmail, signedIn: true, check: (page) => expectForm(page, ['new_email', 'password']) },
  {
    // Without a token there is nothing to confirm: the page says so (the real link is in change-email.spec.ts).
    path: appRoutes.confirmEmail,
    check: async (page) => {
      await expect(page.getByText(texts.tokenInvalid, { exact: true })).toBeVisible();
    },
  },
  { path: appRoutes.deleteAccount, signedIn: true, check: (page) => expectForm(page, ['password', 'confirm']) },
  {
    // A fresh account: two-step sign-in is off, so the page offers to set it up (the rest is in two-factor.spec.ts).
    path: appRoutes.twoFactor,
    signedIn: true,
    check: async (page) => {
      await expect(page.getByText(/^Two-step sign-in is off/)).toBeVisible();
      await expectForm(page, ['password']);
    },
  },
];
