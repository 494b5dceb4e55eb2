import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '@hello/contract';
import errors from '../../src/plugins/app/errors.js';

/**
 * An error thrown by a plugin rather than as an ApiError (plugins/app/errors.ts, toApiError) still
 * gets the contract's answer; a 401 among them names its call's challenge, as every 401 must.
 */
describe("a plugin's own refusals", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(errors);
    const refusal = (statusCode: number) => Object.assign(new Error('a refusal of a plugin'), { statusCode });
    app.get('/401', async () => {
      throw refusal(401);
    });
    app.get('/401-token', { schema: { security: [{ token: [] }] } }, async () => {
      throw refusal(401);
    });
    app.get('/403', async () => {
      throw refusal(403);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a 401 with the Bearer challenge and the not-authenticated detail', async () => {
    const res = await app.inject({ method: 'GET', url: '/401' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    expect(res.json()).toEqual({ detail: serverMessages.credentialsNotProvided });
  });

  it('names the Token challenge on a call whose security is the token scheme, as its OpenAPI 401 declares', async () => {
    const res = await app.inject({ method: 'GET', url: '/401-token' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Token realm="api"');
  });

  it('answers another 4xx with a generic detail and no challenge', async () => {
    const res = await app.inject({ method: 'GET', url: '/403' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.json()).toEqual({ detail: 'Request failed (403).' });
  });
});
