import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { readWrittenOnce, writeOnce } from '../../src/storage/write-once.js';

// linkSync() and readFileSync() as the real ones, until a test makes link fail as a filesystem
// without hard links does (vfat, SMB), or stands for another instance writing a file.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, linkSync: vi.fn(actual.linkSync), readFileSync: vi.fn(actual.readFileSync) };
});
const real = await vi.importActual<typeof import('node:fs')>('node:fs');

function withoutHardLinks(code: string): void {
  vi.mocked(linkSync).mockImplementation(() => {
    throw Object.assign(new Error(`${code}: link`), { code });
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hello-write-once-'));
});
afterEach(() => {
  vi.mocked(linkSync).mockReset().mockImplementation(real.linkSync);
  vi.mocked(readFileSync).mockReset().mockImplementation(real.readFileSync);
  rmSync(dir, { recursive: true, force: true });
});

const leftovers = () => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
const mode = (file: string) => statSync(file).mode & 0o777;

describe('writeOnce (storage/write-once.ts)', () => {
  it.each(['with hard links', 'EPERM', 'ENOTSUP'])('the first writer wins (%s)', (code) => {
    if (code !== 'with hard links') withoutHardLinks(code);
    const file = path.join(dir, 'sub', 'once');
    expect(writeOnce(file, 'first', 0o600)).toBe(true);
    expect(writeOnce(file, 'second', 0o600)).toBe(false);
    expect(real.readFileSync(file, 'utf8')).toBe('first\n');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['once']);
  });

  it('throws any other link error, leaving no file', () => {
    withoutHardLinks('EACCES');
    const file = path.join(dir, 'once');
    expect(() => writeOnce(file, 'x', 0o644)).toThrow(/EACCES/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('readWrittenOnce: null without the file, the text trimmed with it', () => {
    const file = path.join(dir, 'once');
    expect(readWrittenOnce(file)).toBeNull();
    writeFileSync(file, ' text \n');
    expect(readWrittenOnce(file)).toBe('text');
  });

  it('readWrittenOnce: an empty file is read again, and given up on after about a second', () => {
    const file = path.join(dir, 'once');
    writeFileSync(file, '');
    vi.mocked(readFileSync).mockClear();
    const started = Date.now();
    expect(readWrittenOnce(file)).toBe('');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(vi.mocked(readFileSync)).toHaveBeenCalledTimes(21);
  });
});

describe('DATA_DIR/secret_key (config.ts)', () => {
  it.each(['EPERM', 'ENOTSUP'])('is written in place when link fails with %s; the next caller gets it', (code) => {
    withoutHardLinks(code);
    const first = loadConfig({ DATA_DIR: dir }).secretKey;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'secret_key');
    expect(real.readFileSync(file, 'utf8')).toBe(`${first}\n`);
    expect(mode(file)).toBe(0o600);
    expect(leftovers()).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(first);
  });

  it('is read again when found empty while another instance writes it', () => {
    const file = path.join(dir, 'secret_key');
    const theirs = 'x'.repeat(64);
    writeFileSync(file, ''); // created, not yet written: the other instance's write without a link
    vi.mocked(readFileSync).mockImplementation(((...args: Parameters<typeof real.readFileSync>) => {
      const text = real.readFileSync(...args);
      if (String(args[0]) === file) real.writeFileSync(file, `${theirs}\n`); // the other instance's write lands
      return text;
    }) as typeof real.readFileSync);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(theirs);
    expect(leftovers()).toEqual([]);
  });

  it('still refuses a file that stays too short', () => {
    writeFileSync(path.join(dir, 'secret_key'), 'short\n');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/shorter than 32 characters/);
  });
});
