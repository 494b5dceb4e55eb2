import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';

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

  it('answers a wrong method on a known path with 405 JSON and Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/api/v1/token/' });
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(res.headers.allow).toContain('POST');
  });

  it('answers malformed JSON with 400 JSON and no stack trace', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/token/', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Malformed request body.' });
    expect(res.body).not.toMatch(/at .*\.js:\d+/);
  });

  it('takes an empty JSON body as an empty object (field errors, not a parse error)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/token/', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['This field is required.'], password: ['This field is required.'] });
  });

  it('answers a body over MAX_BODY_BYTES with 413 JSON', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/token/', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body is too large.' });
  });
});
