import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/schema-compilers.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

/** A bare Fastify with the app's compilers and its Ajv options, and one route using every kind of schema. */
async function appWith(body: object) {
  const schemas = lazySchemaCompilers();
  const app = Fastify({
    ajv: { customOptions: { allErrors: true } },
    schemaController: {
      compilersFactory: { buildValidator: schemas.buildValidator, buildSerializer: schemas.buildSerializer },
    },
  });
  app.post(
    '/items/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } } },
        querystring: { type: 'object', properties: { full: { type: 'boolean', default: false } } },
        body,
        response: {
          200: {
            type: 'object',
            properties: { id: { type: 'integer' }, full: { type: 'boolean' }, name: { type: 'string' } },
          },
        },
      },
    },
    async (request) => ({
      ...(request.params as object),
      ...(request.query as object),
      ...(request.body as object),
      secret: 'not in the schema',
    }),
  );
  await app.ready();
  return { app, compileAll: schemas.compileAll };
}

const itemBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 2 } },
};

describe('route schemas compiled on first use', () => {
  it('validate, coerce and serialize exactly as compiled at start-up', async () => {
    const { app } = await appWith(itemBody);
    const ok = await app.inject({ method: 'POST', url: '/items/7?full=true', payload: { name: 'abc', extra: 1 } });
    expect(ok.statusCode).toBe(200);
    // Coerced params and query, defaults, additional properties removed, only the response schema's fields sent.
    expect(ok.json()).toEqual({ id: 7, full: true, name: 'abc' });
    expect((await app.inject({ method: 'POST', url: '/items/7', payload: { name: 'abc' } })).json()).toEqual({
      id: 7,
      full: false,
      name: 'abc',
    });

    // Every error at once (allErrors), with Fastify's usual 400.
    const bad = await app.inject({ method: 'POST', url: '/items/x', payload: { name: 'a' } });
    expect(bad.statusCode).toBe(400);
    const wrongBody = await app.inject({ method: 'POST', url: '/items/1', payload: { name: 1, other: 2 } });
    expect(wrongBody.statusCode).toBe(400);
    expect(wrongBody.json().message).toMatch(/body\/name/);
    await app.close();
  });

  it('a broken schema fails compileAll() with its route, and its route answers 500 rather than skip validation', async () => {
    const { app, compileAll } = await appWith({ type: 'object', properties: { name: { type: 'strnig' } } });
    expect(() => compileAll()).toThrow(/POST \/items\/:id \(body\)/);
    const answer = await app.inject({ method: 'POST', url: '/items/1', payload: { name: 'abc' } });
    expect(answer.statusCode).toBe(500);
    await app.close();
  });
});

describe('the app', () => {
  let built: TestApp;
  afterAll(() => built?.close());

  it('has route schemas that all compile', async () => {
    built = await buildTestApp('sqlite');
    await built.app.ready();
    expect(() => built.app.compileSchemas()).not.toThrow();
  });
});
