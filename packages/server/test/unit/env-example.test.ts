import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const example = parseEnv(readFileSync(path.join(repoRoot, '.env.example'), 'utf8'));
/** The variables config.ts reads: the keys of its environment schema. */
const configKeys = [
  ...readFileSync(path.resolve(import.meta.dirname, '../../src/config.ts'), 'utf8').matchAll(
    /^ {2}([A-Z][A-Z0-9_]*):/gm,
  ),
].map((m) => m[1]);

describe('.env.example', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-env-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists every variable of config.ts, and nothing else', () => {
    expect(configKeys.length).toBeGreaterThan(20);
    expect(Object.keys(example).sort()).toEqual([...configKeys].sort());
  });

  it('gives exactly the defaults: copying it to .env changes nothing', () => {
    const { DATA_DIR: _ignored, ...rest } = example;
    expect(loadConfig({ ...rest, DATA_DIR: dataDir })).toEqual(loadConfig({ DATA_DIR: dataDir }));
  });
});
