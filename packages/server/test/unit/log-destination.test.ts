import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { logDestination } from '../../src/log-destination.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

/**
 * The server started at a terminal (`npm start`) prints readable lines; anything else, and any start
 * with NODE_ENV=production, gets JSON (src/log-destination.ts). The real process at a real terminal:
 * test/reliability/terminal-log.test.ts.
 */
const terminal = (colors = false) => {
  const written: string[] = [];
  return { isTTY: true, hasColors: () => colors, write: (text: string) => written.push(text), written };
};
const line = (fields: object) => `${JSON.stringify(fields)}\n`;

describe('where the log goes', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('leaves JSON in place when stdout is not a terminal (a pipe, a file, a log collector)', async () => {
    expect(await logDestination({ isTTY: false, write: () => true }, 'development')).toBeUndefined();
    expect(await logDestination({ write: () => true }, 'development')).toBeUndefined();
  });

  it('leaves JSON in place with NODE_ENV=production, even at a terminal', async () => {
    const out = terminal();
    expect(await logDestination(out, 'production')).toBeUndefined();
    expect(out.written).toEqual([]);
  });

  it('writes one readable line per event to a terminal: time, level, pid, message', async () => {
    const out = terminal();
    const destination = await logDestination(out, 'development');
    const time = Date.UTC(2026, 10, 25, 6, 30);
    destination!.write(
      line({ level: 30, time, pid: 4242, hostname: 'box', msg: 'Server listening at http://127.0.0.1:8000' }),
    );
    destination!.write(line({ level: 50, time, pid: 4242, hostname: 'box', msg: 'request failed' }));
    expect(out.written).toHaveLength(2);
    expect(out.written[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(4242\): Server listening at http:\/\/127\.0\.0\.1:8000\n$/,
    );
    expect(out.written[1]).toMatch(/ ERROR \(4242\): request failed\n$/);
    expect(out.written.join('')).not.toMatch(/[{}]|box/);
  });

  it('colours it when the terminal has colours', async () => {
    const out = terminal(true);
    (await logDestination(out, 'development'))!.write(line({ level: 30, time: Date.now(), pid: 1, msg: 'hello' }));
    expect(out.written[0]).not.toBe(stripVTControlCharacters(out.written[0]!));
    expect(stripVTControlCharacters(out.written[0]!)).toMatch(/ INFO \(1\): hello\n$/);
  });

  it("shows the app's requests readably, with what the JSON log redacts still redacted", async () => {
    const out = terminal();
    t = await buildTestApp('sqlite', { LOG_LEVEL: 'info' }, { logStream: await logDestination(out, 'development') });
    const res = await t.app.inject({
      url: '/api/v1/user/profile/?token=secret-in-the-query',
      headers: { authorization: 'Bearer secret-in-a-header' },
    });
    expect(res.statusCode).toBe(401);
    const text = out.written.join('');
    expect(text).toMatch(
      /INFO \(\d+\): incoming request\n[^[]*"url": "\/api\/v1\/user\/profile\/\?token=\[redacted\]"/,
    );
    expect(text).toMatch(/INFO \(\d+\): request completed\n/);
    expect(text).not.toMatch(/secret-in-|^\{"level"/m);
  });
});
