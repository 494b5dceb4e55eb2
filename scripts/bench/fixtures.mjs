// The data a run needs, created through the product's own calls (docs/api.md, "Calls"): one
// registered user, its tokens, and news items with one small file each.
import { randomBytes } from 'node:crypto';
import { apiPaths } from '@hello/contract';

/**
 * Throws with the answer's status and body when it is not the expected one.
 * @param {Response} response
 * @param {number} expected
 * @param {string} what
 */
async function expectStatus(response, expected, what) {
  if (response.status !== expected) {
    const text = await response.text().catch(() => '');
    throw new Error(`${what}: expected ${expected}, got ${response.status} ${text.slice(0, 300)}`);
  }
  return response;
}

/**
 * @param {string} base
 * @param {string} path
 * @param {unknown} body
 * @param {string} what
 * @returns {Promise<any>} the answer's JSON body
 */
async function postJson(base, path, body, what, expected = 200) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await expectStatus(response, expected, what)).json();
}

/**
 * Registers a fresh user and exchanges its refresh token (the registration's `key`) for an access token.
 * @param {string} base
 * @returns {Promise<{ email: string, password: string, refresh: string, access: string }>}
 */
export async function registerUser(base) {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Quiet-${randomBytes(6).toString('base64url')}-meadow`;
  const { key: refresh } = await postJson(
    base,
    apiPaths.registration,
    { email, password1: password, password2: password },
    `POST ${apiPaths.registration}`,
    201,
  );
  const { access } = await postJson(base, apiPaths.tokenRefresh, { refresh }, `POST ${apiPaths.tokenRefresh}`);
  return { email, password, refresh, access };
}

/**
 * Adds `count` news items, each with one small text file, as the web app's form does (multipart).
 * @param {string} base
 * @param {string} refresh
 * @param {number} count
 */
export async function addNews(base, refresh, count) {
  for (let i = 1; i <= count; i++) {
    const response = await postNews(base, refresh, newsForm(i, count, 'files'));
    await expectStatus(response, 201, `POST ${apiPaths.localNewsNew}`);
    await response.arrayBuffer();
  }
}

/**
 * Sends the same post as addNews, its file under a field the product ignores (it drains the file
 * unread), so the product refuses it, 400, before it stores anything: what any post of that size
 * costs the server (its request, the token check, the multipart body read), without its work.
 * @param {string} base
 * @param {string} refresh
 */
export async function refusedNews(base, refresh) {
  const response = await postNews(base, refresh, newsForm(1, 1, 'attachment'));
  await expectStatus(response, 400, `POST ${apiPaths.localNewsNew} without files`);
  await response.arrayBuffer();
}

/**
 * @param {number} i
 * @param {number} count
 * @param {string} fileField
 */
function newsForm(i, count, fileField) {
  const form = new FormData();
  form.append('title', `Bench item ${i}`);
  form.append('content', `Item ${i} of ${count}, added by the benchmark. `.repeat(4));
  form.append(fileField, new Blob([`attachment ${i}\n`.repeat(20)], { type: 'text/plain' }), `note-${i}.txt`);
  return form;
}

/**
 * @param {string} base
 * @param {string} refresh
 * @param {FormData} form
 */
const postNews = (base, refresh, form) =>
  fetch(base + apiPaths.localNewsNew, { method: 'POST', headers: { authorization: `Token ${refresh}` }, body: form });

/**
 * One GET; the status, all headers (lower-case names) and body bytes.
 * @param {string} url
 * @param {Record<string, string>} [headers]
 */
export async function fetchBytes(url, headers = {}) {
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  };
}
