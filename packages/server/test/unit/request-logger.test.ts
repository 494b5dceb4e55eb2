import { rmSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeferredChildLogger, requestLoggerFactory } from '../../src/request-logger.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

/**
 * Each request's logger is made only when the request first writes a line the server logs
 * (src/request-logger.ts); until then nothing of it exists, and what it writes is as before.
 */
describe('the request logger made on its first line', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let madeChildren: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    app = Fastify({
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
      childLoggerFactory: requestLoggerFactory('warn'),
    });
    app.get('/quiet', async (request) => {
      request.log.info('below the level');
      request.log.debug({ detail: 1 }, 'further below');
      return { deferred: request.log instanceof DeferredChildLogger, level: request.log.level };
    });
    app.get('/warns', async (request) => {
      request.log.warn({ detail: 'x' }, 'a warning');
      request.log.info('still below the level');
      return {};
    });
    app.get('/own-level', async (request) => {
      request.log.level = 'debug';
      request.log.debug('this request asked for debug');
      return {};
    });
    app.get('/child', async (request) => {
      request.log.child({ component: 'probe' }).error('from a child');
      return {};
    });
    app.get('/asks', async (request) => {
      const log = request.log as unknown as {
        isLevelEnabled(level: string): boolean;
        bindings(): Record<string, unknown>;
        levelVal: number;
      };
      const before = { info: log.isLevelEnabled('info'), warn: log.isLevelEnabled('warn'), levelVal: log.levelVal };
      request.log.level = 'debug';
      return {
        before,
        after: { info: log.isLevelEnabled('info'), level: request.log.level },
        bindings: log.bindings(),
      };
    });
    app.get('/route-level', { logLevel: 'info' }, async (request) => {
      request.log.info('a route logged at info');
      return { deferred: request.log instanceof DeferredChildLogger };
    });
    await app.ready();
    madeChildren = vi.spyOn(app.log, 'child');
  });
  afterEach(() => {
    lines.length = 0;
    madeChildren.mockClear();
  });
  afterAll(() => app.close());

  it('is kept by Fastify as its own at info and below and with logging off; deferred at warn and above', () => {
    for (const level of ['info', 'debug', 'trace', 'silent'])
      expect(requestLoggerFactory(level), level).toBeUndefined();
    for (const level of ['warn', 'error', 'fatal']) expect(requestLoggerFactory(level), level).toBeTypeOf('function');
  });

  it('makes no child and writes nothing for a request that logs below the level', async () => {
    const res = await app.inject({ method: 'GET', url: '/quiet' });
    expect(res.json()).toEqual({ deferred: true, level: 'warn' });
    expect(madeChildren).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes a line at the level with the request's id, once the child is made", async () => {
    const res = await app.inject({ method: 'GET', url: '/warns' });
    expect(res.statusCode).toBe(200);
    expect(madeChildren).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'a warning', detail: 'x', reqId: expect.any(String) });
  });

  it('takes a level set on it for that request alone', async () => {
    await app.inject({ method: 'GET', url: '/own-level' });
    // Fastify's own line at info ends the request, as with pino's child at debug.
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [20, 'this request asked for debug'],
      [30, 'request completed'],
    ]);
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines).toHaveLength(2);
    expect(app.log.level).toBe('warn');
  });

  it("answers what else a caller asks of pino's child: whether a level is on, its level, its bindings", async () => {
    const res = await app.inject({ method: 'GET', url: '/asks' });
    expect(res.json()).toEqual({
      before: { info: false, warn: true, levelVal: 40 },
      after: { info: true, level: 'debug' },
      bindings: { reqId: expect.any(String) },
    });
  });

  it("gives its children the request's id and their own bindings", async () => {
    await app.inject({ method: 'GET', url: '/child' });
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'from a child', component: 'probe', reqId: expect.any(String) }),
    ]);
  });

  it("makes the child at once for a route with a level of its own, and writes at the route's level", async () => {
    const res = await app.inject({ method: 'GET', url: '/route-level' });
    expect(res.json()).toEqual({ deferred: false });
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [30, 'incoming request'],
      [30, 'a route logged at info'],
      [30, 'request completed'],
    ]);
  });
});

describe('the product at LOG_LEVEL=warn', () => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(
      'sqlite',
      { LOG_LEVEL: 'warn' },
      { logStream: { write: (line) => void lines.push(JSON.parse(line)) } },
    );
  });
  afterAll(() => t.close());

  it('makes no request logger for an answer that writes no line', async () => {
    await t.app.ready();
    const made = vi.spyOn(t.app.log, 'child');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/localnews/' })).statusCode).toBe(401);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
  });

  it("still logs a request's error with its id", async () => {
    const pdf = (await t.app.pdfStore.find(2))!;
    rmSync(pdf.path);
    expect((await t.app.inject({ method: 'GET', url: `/download_pdf_by_id/${pdf.id}` })).statusCode).toBe(404);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'PDF row without its file', id: pdf.id, reqId: expect.any(String) }),
    ]);
  });
});
