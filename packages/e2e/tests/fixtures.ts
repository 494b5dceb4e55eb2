import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  apiPaths,
  appRoutes,
  newsItemPath,
  texts,
  TOKEN_STORAGE_KEY,
  type AccessToken,
  type NewsItem,
  type RegistrationResponse,
  type TokenPair,
} from '@hello/contract';
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

export async function registerViaApi(
  request: APIRequestContext,
  email = uniqueEmail(),
  password = PASSWORD,
): Promise<User> {
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

/** Controls by the API's field names (docs/web-app.md, "Forms": every control's `name` is its field). */
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

/**
 * Waits for the first mail to `to` (with `subject`, when given: a sign-in may have sent the address a
 * new-device notice first) that the SMTP peer caught.
 */
export async function waitForMail(to: string, timeoutMs = 20_000, subject?: string): Promise<Mail> {
  const mailbox = process.env[envNames.mailbox];
  if (!mailbox) throw new Error(`global setup did not set ${envNames.mailbox}`);
  const query = new URLSearchParams({ to, timeoutMs: String(timeoutMs), ...(subject ? { subject } : {}) });
  const res = await fetch(`${mailbox}/mail?${query}`);
  if (!res.ok) throw new Error(`No mail to ${to}: ${await res.text()}`);
  return (await res.json()) as Mail;
}

/** The reset mail's subject (packages/server/src/mail/messages.ts). */
export const RESET_SUBJECT = 'Reset your password';

/** Requests a password reset for `email` through the API and returns the mailed link. */
export async function resetLinkViaApi(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post(apiPaths.passwordReset, {
    data: { email, reset_new_password_path: appRoutes.resetNewPassword },
  });
  expect(res.status(), await res.text()).toBe(200);
  return resetLinkIn(await waitForMail(email, undefined, RESET_SUBJECT));
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

/** A file to upload, in the shape Playwright's setInputFiles takes. */
export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const textFile = (name: string, text = `The file ${name}.\n`): UploadFile => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(text),
});

/**
 * Adds a news item as `user` the way the add form does: POST /api/v1/localnews/new, multipart with
 * every file under `files`, and the user's Token header. Answers the stored item.
 */
export async function postNewsViaApi(
  request: APIRequestContext,
  user: Pick<User, 'token'>,
  item: { title: string; content: string; files: UploadFile[] },
): Promise<NewsItem> {
  const form = new FormData();
  form.append('title', item.title);
  form.append('content', item.content);
  for (const file of item.files)
    form.append('files', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  const res = await request.post(apiPaths.localNewsNew, {
    headers: { Authorization: `Token ${user.token}` },
    multipart: form,
  });
  expect(res.status(), `adding "${item.title}": ${await res.text()}`).toBe(201);
  return (await res.json()) as NewsItem;
}

/** An access token for Bearer calls, from the user's refresh token. */
export async function accessTokenViaApi(request: APIRequestContext, user: Pick<User, 'token'>): Promise<string> {
  const res = await request.post(apiPaths.tokenRefresh, { data: { refresh: user.token } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as AccessToken).access;
}

/** GET /api/v1/localnews/{id}/ with a Bearer token: the status, and the item when it is 200. */
export async function getNewsViaApi(request: APIRequestContext, access: string, id: number) {
  const res = await request.get(newsItemPath(id), { headers: { Authorization: `Bearer ${access}` } });
  return { status: res.status(), item: res.ok() ? ((await res.json()) as NewsItem) : undefined };
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real (small, valid) RGB PNG, each pixel's colour from `color(x, y)`. */
export function makePng(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3); // each row starts with its filter type, 0 (none)
    for (let x = 0; x < width; x++) rows.set(color(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
