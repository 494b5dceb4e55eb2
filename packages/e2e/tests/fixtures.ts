import { randomUUID } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiPaths, appRoutes, texts, TOKEN_STORAGE_KEY, type RegistrationResponse, type TokenPair } from '@hello/contract';
import { envNames, type Backend } from '../support/env';
import type { Mail } from '../support/mailbox';

export { expect };

export interface E2EOptions {
  /** Which product server the project runs against; global setup starts one per backend. */
  backend: Backend;
}

/** A registered account. `token` is the refresh token the registration answered with. */
export interface User {
  email: string;
  password: string;
  token: string;
}

/** A password the server's rules accept: long, not numeric, not common, unlike the e-mail. */
export const PASSWORD = 'Plum-Kettle-Orbit-42';
export const OTHER_PASSWORD = 'Violet-Harbour-Sled-77';

/**
 * pdf.js is the heaviest thing the app loads (its chunk and its worker); on a busy 2-core machine
 * the first page can take a while to appear.
 */
export const PDF_READY_TIMEOUT = 30_000;

/** A fresh address per call, so tests never share an account. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

export const test = base.extend<E2EOptions & { user: User }>({
  backend: ['sqlite', { option: true }],
  baseURL: async ({ backend }, use) => {
    const url = process.env[envNames.url(backend)];
    if (!url) throw new Error(`No ${backend} product server: global setup did not set ${envNames.url(backend)}`);
    await use(url);
  },
  /** A freshly registered account (through the API). */
  user: async ({ request }, use) => {
    await use(await registerViaApi(request));
  },
});

export async function registerViaApi(request: APIRequestContext, email = uniqueEmail(), password = PASSWORD): Promise<User> {
  const res = await request.post(apiPaths.registration, { data: { email, password1: password, password2: password } });
  expect(res.status(), `registration of ${email}: ${await res.text()}`).toBe(201);
  const { key } = (await res.json()) as RegistrationResponse;
  expect(key).toBeTruthy();
  return { email, password, token: key };
}

/** The status of POST /api/v1/token/ and its body. */
export async function loginViaApi(request: APIRequestContext, email: string, password: string) {
  const res = await request.post(apiPaths.token, { data: { email, password } });
  return { status: res.status(), body: (await res.json()) as Partial<TokenPair> & { detail?: string } };
}

/** The status of exchanging a refresh token: 200 while its session lives, 401 once it ended. */
export async function refreshStatus(request: APIRequestContext, refresh: string): Promise<number> {
  const res = await request.post(apiPaths.tokenRefresh, { data: { refresh } });
  return res.status();
}

/** Controls by the contract's field names (CONTRACT.md §3: every control's `name` is its field). */
export const field = (page: Page | Locator, name: string) => page.locator(`[name="${name}"]`);
export const submitButton = (page: Page | Locator) => page.getByRole('button', { name: texts.submit, exact: true });
export const resetButton = (page: Page | Locator) => page.getByRole('button', { name: texts.reset, exact: true });

export async function loginViaUi(page: Page, email: string, password: string): Promise<void> {
  if (!new URL(page.url(), 'http://x').pathname.startsWith(appRoutes.login)) await page.goto(appRoutes.login);
  await field(page, 'email').fill(email);
  await field(page, 'password').fill(password);
  await submitButton(page).click();
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY);
}

/**
 * Signs the browser in as `user` the way the app keeps a session: the refresh token in
 * localStorage. Opens `/about` first (a page that makes no authenticated call) to reach the origin.
 */
export async function signIn(page: Page, user: Pick<User, 'token'>): Promise<void> {
  await page.goto(appRoutes.about);
  await page.evaluate(([key, token]) => localStorage.setItem(key, token), [TOKEN_STORAGE_KEY, user.token] as const);
}

/** Waits for the first mail to `to` that the SMTP peer caught. */
export async function waitForMail(to: string, timeoutMs = 20_000): Promise<Mail> {
  const mailbox = process.env[envNames.mailbox];
  if (!mailbox) throw new Error(`global setup did not set ${envNames.mailbox}`);
  const res = await fetch(`${mailbox}/mail?to=${encodeURIComponent(to)}&timeoutMs=${timeoutMs}`);
  if (!res.ok) throw new Error(`No mail to ${to}: ${await res.text()}`);
  return (await res.json()) as Mail;
}

/** Requests a password reset for `email` through the API and returns the mailed link. */
export async function resetLinkViaApi(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post(apiPaths.passwordReset, {
    data: { email, reset_new_password_path: appRoutes.resetNewPassword },
  });
  expect(res.status(), await res.text()).toBe(200);
  return resetLinkIn(await waitForMail(email));
}

/** The reset link (PUBLIC_URL + /resetnewpassword?token=…) inside a reset mail. */
export function resetLinkIn(mail: Mail): string {
  const match = /https?:\/\/[^\s"'<>]+\/resetnewpassword\?token=[^\s"'<>]+/.exec(mail.text);
  if (!match) throw new Error(`No reset link in the mail "${mail.subject}":\n${mail.text}`);
  return match[0];
}

/** A promise-based gate to hold a request until the test has seen the state it causes. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
