import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@hello/testkit';
import { ensureBuilt, serverRoot, spawnServer } from '../helpers/spawn-server.js';

/**
 * The server started at a terminal (`npm start`) prints readable lines; with its output going
 * elsewhere (a pipe), or with NODE_ENV=production, JSON lines (src/log-destination.ts). The terminal
 * is a real pseudo-terminal, made by util-linux's `script` (in every Debian: bsdutils). Each server
 * also reports, as it exits, which CommonJS modules it loaded: pino-pretty only for the readable log.
 */
const PRETTY_LISTENING = /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): Server listening at http:\/\/127\.0\.0\.1:\d+\r?$/m;
const loadsPinoPretty = (modules: string) => modules.split('\n').some((file) => file.includes('/pino-pretty/'));

describe('the log of a real start', () => {
  const dataDirs: string[] = [];
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A DATA_DIR of its own, and a script that writes the loaded modules' files into it at exit. */
  const prepare = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-log-'));
    dataDirs.push(dataDir);
    const modules = path.join(dataDir, 'loaded-modules.txt');
    const reporter = path.join(dataDir, 'report-modules.cjs');
    writeFileSync(
      reporter,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(modules)}, Object.keys(require.cache).join('\\n')));\n`,
    );
    return { dataDir, reporter, loadedModules: () => readFileSync(modules, 'utf8') };
  };

  /** `node dist/server.js` on a pseudo-terminal; its output as the terminal shows it, and the modules it loaded. */
  async function startAtATerminal(nodeEnv: string): Promise<{ output: string; modules: string }> {
    expect(spawnSync('script', ['--version']).status, 'util-linux `script` is needed for a pseudo-terminal').toBe(0);
    ensureBuilt();
    const { dataDir, reporter, loadedModules } = prepare();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TERM: 'xterm',
      NODE_ENV: nodeEnv,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    const command = [process.execPath, '--require', reporter, path.join(serverRoot, 'dist/server.js')]
      .map((arg) => `'${arg}'`)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: dataDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(child, 'exit');
    try {
      const deadline = Date.now() + 60_000;
      while (!/is serving/.test(output) && child.exitCode === null && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(output, 'the server did not start').toMatch(/is serving/);
    } finally {
      child.kill('SIGTERM'); // script ends, and the server with it
      await exited;
    }
    return { output: stripVTControlCharacters(output), modules: loadedModules() };
  }

  it('is readable lines at a terminal, from pino-pretty loaded for it', async () => {
    const { output, modules } = await startAtATerminal('development');
    expect(output).toMatch(PRETTY_LISTENING);
    expect(output).not.toMatch(/^\{"level"/m);
    expect(loadsPinoPretty(modules)).toBe(true);
  }, 90_000);

  it('is JSON lines at a terminal with NODE_ENV=production, and pino-pretty is not loaded', async () => {
    const { output, modules } = await startAtATerminal('production');
    const messages = output
      .split(/\r?\n/)
      .filter((text) => text.startsWith('{'))
      .map((text) => (JSON.parse(text) as { msg: string }).msg);
    expect(messages).toContainEqual(expect.stringMatching(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/));
    expect(output).not.toMatch(PRETTY_LISTENING);
    expect(modules).toMatch(/\/better-sqlite3\//); // the report lists the CommonJS modules loaded
    expect(loadsPinoPretty(modules)).toBe(false);
  }, 90_000);

  it('is JSON lines when the output is not a terminal, and pino-pretty is not loaded', async () => {
    const { dataDir, reporter, loadedModules } = prepare();
    const server = await spawnServer({
      dataDir,
      env: { LOG_LEVEL: 'info', NODE_ENV: 'development' },
      nodeArgs: ['--require', reporter],
    });
    server.child.kill('SIGTERM');
    expect((await server.exited()).code).toBe(0);
    const messages = server
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => (JSON.parse(text) as { msg: string }).msg);
    expect(messages).toContainEqual(expect.stringMatching(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/));
    expect(messages).toContain('shutting down');
    expect(server.output()).not.toMatch(PRETTY_LISTENING);
    expect(loadedModules()).toMatch(/\/better-sqlite3\//);
    expect(loadsPinoPretty(loadedModules())).toBe(false);
  }, 90_000);
});
