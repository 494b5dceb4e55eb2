import { apiPaths } from '@hello/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { rawExchange } from '../helpers/raw-http.js';
import { goodPassword } from '../helpers/accounts.js';
import { multipart } from '../helpers/multipart.js';
import { bearer, createUser, uniqueEmail } from '../helpers/users.js';

describe.each(dialects)('error contract (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers an unknown API path with 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('names the media type it does not take in a 415, as Django REST Framework does', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported media type "text/xml" in request.' });
    // text/plain too: no call takes it, whatever Fastify would parse by itself.
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'text/plain' },
      payload: '{"email": "a@example.com", "password": "x"}',
    });
    expect([text.statusCode, text.json()]).toEqual([
      415,
      { detail: 'Unsupported media type "text/plain" in request.' },
    ]);
  });

  it('answers 404, not 405, where no resource can live: a news item path whose id is not an id', async () => {
    for (const url of ['/api/v1/localnews/new/', '/api/v1/localnews/abc/', '/api/v1/localnews/07/']) {
      const res = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
    const item = await t.app.inject({ method: 'POST', url: '/api/v1/localnews/7/', payload: {} });
    expect(item.statusCode).toBe(405);
    expect(item.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('answers a wrong method on a known path with 405 JSON and Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/token/' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(res.headers.allow).toContain('POST');
  });

  // Only the calls that take a body have the url-encoded and multipart parsers (plugins/app/request-bodies.ts).
  it.each([
    [
      'multipart',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    ],
    ['url-encoded', 'application/x-www-form-urlencoded', 'a=1'],
    ['empty JSON', 'application/json', ''],
    ['unknown type', 'text/xml', '<a/>'],
  ])(
    'answers a %s body sent with a wrong method or to an unknown path with 405 or 404, as without one',
    async (_name, type, payload) => {
      const wrongMethod = await t.app.inject({
        method: 'POST',
        url: '/api/v1/localnews/',
        headers: { 'content-type': type },
        payload,
      });
      expect(wrongMethod.statusCode).toBe(405);
      expect(wrongMethod.json()).toEqual({ detail: 'Method "POST" not allowed.' });
      expect(wrongMethod.headers.allow).toContain('GET');
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/v1/nothing-here/',
        headers: { 'content-type': type },
        payload,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ detail: 'Not found.' });
    },
  );

  it("gives the body parsers' per-request hooks only to the calls that take a body", async () => {
    await t.app.ready(); // routes get their hooks once the app is ready, whichever test ran first
    const routes = t.app.printRoutes({ includeHooks: true, commonPrefix: false });
    // printRoutes: a line per route, then a `• (hook) [names]` line per hook kind it runs.
    const hooksOf = (route: string) => {
      const lines = routes.split('\n');
      const first = lines.findIndex((line) => line.includes(route)) + 1;
      expect(first).toBeGreaterThan(0);
      const end = lines.findIndex((line, i) => i >= first && !line.includes('•'));
      return lines.slice(first, end).join('\n');
    };
    const onResponse = (route: string) =>
      JSON.parse(/\(onResponse\) (\[.*\])/.exec(hooksOf(route))?.[1] ?? '[]') as string[];
    // @fastify/multipart's onResponse hook cleans up files saved to disk; the reads served most go without
    // it: their one onResponse hook is the metrics' count of every answer (plugins/app/metrics.ts).
    expect(onResponse('api/v1/localnews/ (GET')).toEqual(['countAnswer()']);
    expect(onResponse('download_pdf_by_id/:id(^[1-9][0-9]{0,9}$) (GET')).toEqual(['countAnswer()']);
    expect(hooksOf('api/v1/token/ (POST)')).toContain('(preValidation) ["formBodies()"]');
    // The calls that take a body run multipart's too (a function with no name).
    expect(onResponse('api/v1/token/ (POST)')).toEqual(['countAnswer()', 'anonymous()']);
  });

  it('answers HTTP that Node cannot parse in the contract’s error shape, then closes', async () => {
    const request = (header: string) =>
      `GET /api/v1/user/profile/ HTTP/1.1\r\nHost: app.test\r\n${header}\r\nConnection: keep-alive\r\n\r\n`;
    for (const [header, status, detail] of [
      ['User-Agent: \x01ab', '400 Bad Request', 'Malformed request.'],
      [
        `Authorization: Bearer ${'x'.repeat(20_000)}`,
        '431 Request Header Fields Too Large',
        'The request headers are too large.',
      ],
    ] as const) {
      const answer = await rawExchange(t.app, request(header));
      const [head, body] = answer.split('\r\n\r\n');
      expect(head!.split('\r\n')[0]).toBe(`HTTP/1.1 ${status}`);
      expect(head).toMatch(/\r\ncontent-type: application\/json(\r\n|$)/i);
      expect(JSON.parse(body!)).toEqual({ detail });
    }
  });

  it('answers malformed JSON with 400 JSON and no stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Malformed request body.' });
    expect(res.body).not.toMatch(/at .*\.js:\d+/);
  });

  it('takes an empty JSON body as an empty object (field errors, not a parse error)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['This field is required.'], password: ['This field is required.'] });
  });

  it('takes a call with no body at all as one with every field missing', async () => {
    for (const [url, fields] of [
      ['/api/v1/token/', ['email', 'password']],
      ['/api/v1/rest-auth/registration/', ['email', 'password1', 'password2']],
      ['/api/password_reset/', ['email', 'reset_new_password_path']],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url });
      expect([res.statusCode, res.json()], url).toEqual([
        400,
        Object.fromEntries(fields.map((field) => [field, ['This field is required.']])),
      ]);
    }
    // A body without a Content-Type is still refused for its type.
    const untyped = await t.app.inject({ method: 'POST', url: '/api/v1/token/', payload: Buffer.from('email=x') });
    expect(untyped.statusCode).toBe(415);
  });

  it('reads fields as Django REST Framework did: e-mail addresses trimmed, white space alone blank', async () => {
    const email = uniqueEmail('spaced');
    const password = goodPassword();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rest-auth/registration/',
      payload: { email: `  ${email}\t`, password1: password, password2: password },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const stored = await t.app.db.selectFrom('users').select('email').where('email_key', '=', email).executeTakeFirst();
    expect(stored?.email).toBe(email);
    // A password's own spaces count: only a password of nothing but spaces is blank.
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rest-auth/registration/',
      payload: { email: '', password1: '        ', password2: ' ' },
    });
    expect([blank.statusCode, blank.json()]).toEqual([
      400,
      {
        email: ['This field may not be blank.'],
        password1: ['This field may not be blank.'],
        password2: ['This field may not be blank.'],
      },
    ]);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset/',
      payload: { email: `${email.toUpperCase()} `, reset_new_password_path: '/resetnewpassword' },
    });
    expect([reset.statusCode, reset.json()]).toEqual([200, { status: 'OK' }]);
    // The account's, found by the trimmed address: its token is stored once the answer is out.
    await t.app.afterAnswer.settled();
    const tokens = await t.app.db
      .selectFrom('password_reset_tokens')
      .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
      .select('password_reset_tokens.id')
      .where('users.email', '=', email)
      .execute();
    expect(tokens).toHaveLength(1);
  });

  it('refuses a file where a text field belongs, rather than dropping it', async () => {
    const user = await createUser(t);
    const headers = bearer(user);
    const saved = await t.app.inject({
      method: 'POST',
      url: apiPaths.userProfile,
      headers,
      payload: { first_name: 'Ada', last_name: 'Lovelace', user_profile: { telephone: '555 1234' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const body = multipart({ first_name: 'Ada', last_name: 'Lovelace' }, [
      { name: 'user_profile.telephone', filename: 'a.txt', contentType: 'text/plain', data: 'x' },
    ]);
    const refused = await t.app.inject({
      method: 'POST',
      url: apiPaths.userProfile,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect([refused.statusCode, refused.json()]).toEqual([400, { 'user_profile.telephone': ['Not a valid string.'] }]);
    const profile = await t.app.inject({ method: 'GET', url: apiPaths.userProfile, headers });
    expect(profile.json().user_profile.telephone).toBe('555 1234');
  });

  it('refuses a JSON value that is not text where text belongs, and takes a number as its text, as Django REST Framework does', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      payload: { email: ['someone@example.com'], password: true },
    });
    expect([login.statusCode, login.json()]).toEqual([
      400,
      { email: ['Not a valid string.'], password: ['Not a valid string.'] },
    ]);
    const registration = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rest-auth/registration/',
      payload: { email: null, password1: false, password2: { a: 1 } },
    });
    expect([registration.statusCode, registration.json()]).toEqual([
      400,
      {
        email: ['This field may not be null.'],
        password1: ['Not a valid string.'],
        password2: ['Not a valid string.'],
      },
    ]);
    // A number is its text, as DRF's CharField takes it: checked as that text (too short, numeric).
    const numeric = await t.app.inject({
      method: 'POST',
      url: '/api/v1/rest-auth/registration/',
      payload: { email: 'numbers@example.com', password1: 1234567, password2: 1234567 },
    });
    expect([numeric.statusCode, numeric.json()]).toEqual([
      400,
      {
        password1: [
          'This password is too short. It must contain at least 8 characters.',
          'This password is too common.',
          'This password is entirely numeric.',
        ],
      },
    ]);
    // Nested too: the profile's fields.
    const headers = bearer(await createUser(t));
    const save = (payload: object) => t.app.inject({ method: 'POST', url: apiPaths.userProfile, headers, payload });
    const refused = await save({
      first_name: 'Ada',
      last_name: 1815,
      user_profile: { telephone: 5551234, mobile: true },
    });
    expect([refused.statusCode, refused.json()]).toEqual([400, { 'user_profile.mobile': ['Not a valid string.'] }]);
    const saved = await save({ first_name: 'Ada', last_name: 1815, user_profile: { telephone: 5551234 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ user_info: { last_name: '1815', user_profile: { telephone: '5551234' } } });
    // A form's values are strings, and a query's number is still read as one.
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=nobody%40example.com&password=x',
    });
    expect(form.statusCode).toBe(401);
  });

  it('answers a body over MAX_BODY_BYTES with 413 JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/token/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body is too large.' });
  });
});
