import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, cleanFileName } from '../../src/storage/file-names.js';
import { StagedFileStore, stagingHost } from '../../src/storage/staged-files.js';
import { createUrlSigner } from '../../src/storage/signed-urls.js';
import { looksLikeText, sniffContentType } from '../../src/storage/sniff.js';

describe('cleanFileName', () => {
  it('keeps the last path segment, without control or bidi characters, capped', () => {
    expect(cleanFileName('C:\\Users\\me\\photo.jpg')).toBe('photo.jpg');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\r\nc\u202Etxt.exe')).toBe('abctxt.exe');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('', 'document.pdf')).toBe('document.pdf');
    expect(Array.from(cleanFileName('😀'.repeat(300)))).toHaveLength(200);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII filename and the exact name in filename*, with nothing that breaks the header', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('Ünïcode "q" 50%.txt')).toBe(
      `attachment; filename="_n_code _q_ 50_.txt"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22q%22%2050%25.txt`,
    );
    expect(attachmentDisposition('evil"\r\nSet-Cookie: x=1.txt')).not.toMatch(/[\r\n]/);
  });
});

describe('signed attachment links', () => {
  const signer = createUrlSigner('k'.repeat(48), 3600);
  const parts = (query: string) => Object.fromEntries(new URLSearchParams(query)) as { expires: string; sig: string };
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('verifies its own signature for that file until it expires', () => {
    const { expires, sig } = parts(signer.sign(7, 'a1b2', now));
    expect(Number(expires) - now / 1000).toBeGreaterThanOrEqual(3600);
    expect(signer.verify(7, 'a1b2', expires, sig, now)).toBe(true);
    expect(signer.verify(8, 'a1b2', expires, sig, now)).toBe(false);
    // Another file under the same id (ids come back after a restored backup): not this link's.
    expect(signer.verify(7, 'c3d4', expires, sig, now)).toBe(false);
    expect(signer.verify(7, 'a1b2', expires, sig, Number(expires) * 1000)).toBe(false);
    expect(createUrlSigner('x'.repeat(48)).verify(7, 'a1b2', expires, sig, now)).toBe(false);
  });

  it('signs the file an id names now, not the one it named when its link was kept', () => {
    const before = parts(signer.sign(9, 'a1b2', now));
    const after = parts(signer.sign(9, 'c3d4', now)); // the same step, the same id, another file
    expect(after.sig).not.toBe(before.sig);
    expect(signer.verify(9, 'c3d4', after.expires, after.sig, now)).toBe(true);
    expect(signer.verify(9, 'c3d4', before.expires, before.sig, now)).toBe(false);
  });

  it('refuses an altered signature or expiry, including spare base64 bits', () => {
    const { expires, sig } = parts(signer.sign(7, 'a1b2', now));
    // 43 digits carry 258 bits for 32 bytes: flipping the lowest bit of the last digit decodes the same.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = sig.slice(0, -1) + alphabet[alphabet.indexOf(sig.at(-1)!) ^ 1];
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    expect(signer.verify(7, 'a1b2', expires, twin, now)).toBe(false);
    expect(signer.verify(7, 'a1b2', expires, `${sig}=`, now)).toBe(false);
    expect(signer.verify(7, 'a1b2', String(Number(expires) + 1), sig, now)).toBe(false);
    expect(signer.verify(7, 'a1b2', String(Number(expires) + 100_000), sig, now)).toBe(false); // too far ahead to be ours
    expect(signer.verify(7, 'a1b2', [expires], sig, now)).toBe(false);
  });
});

describe('looksLikeText', () => {
  it('accepts UTF-8 without NUL, forgiving a character cut at the end of a prefix', () => {
    const cafe = Buffer.from('café');
    expect(looksLikeText(cafe, true)).toBe(true);
    expect(looksLikeText(cafe.subarray(0, cafe.length - 1), false)).toBe(true);
    expect(looksLikeText(cafe.subarray(0, cafe.length - 1), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0x41, 0x00, 0x42]), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0xff, 0xfe, 0x41]), true)).toBe(false);
    expect(looksLikeText(Buffer.alloc(0), true)).toBe(false);
  });
});

describe('sniffContentType', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

  it('reads a file whose bytes are all in hand from those bytes, without opening it', async () => {
    const missing = path.join(tmpdir(), 'no-such-file-for-sniffing');
    expect(await sniffContentType(missing, png, png.length)).toBe('image/png');
    expect(await sniffContentType(missing, Buffer.from('plain words'), 11)).toBe('text/plain');
  });

  it('calls markup with an XML declaration text, never XML or SVG a browser would render', async () => {
    const missing = path.join(tmpdir(), 'no-such-file-for-sniffing');
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const xhtml = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"></html>',
    );
    expect(await sniffContentType(missing, svg, svg.length)).toBe('text/plain');
    expect(await sniffContentType(missing, xhtml, xhtml.length)).toBe('text/plain');
    // The same bytes in UTF-16 are no UTF-8 text: kept as bytes, not typed.
    const utf16 = Buffer.from(`\ufeff${svg.toString()}`, 'utf16le');
    expect(await sniffContentType(missing, utf16, utf16.length)).toBe('application/octet-stream');
  });

  it('reads a longer file itself, not the prefix in hand', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sniff-'));
    try {
      const file = path.join(dir, 'picture');
      writeFileSync(file, Buffer.concat([png, Buffer.alloc(10_000)]));
      // The prefix says text; the file says PNG. Only a prefix (3 of 10,033 bytes), so the file decides.
      expect(await sniffContentType(file, Buffer.from('abc'), png.length + 10_000)).toBe('image/png');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('StagedFileStore.stage', () => {
  it('leaves no file behind when the source fails before the file is open', async () => {
    // A multipart body can fail (malformed) the moment a file part starts: the file's open and its
    // removal must not race, or an empty staged file is left after the 400 (seen in hostile-input).
    const dir = mkdtempSync(path.join(tmpdir(), 'stage-'));
    const store = new StagedFileStore(dir);
    const failing = () =>
      new Readable({
        read() {
          this.destroy(new Error('malformed'));
        },
      });
    const attempts = Array.from({ length: 300 }, () =>
      store.stage(StagedFileStore.newName(), failing()).then(
        () => 'stored',
        (error: Error) => error.message,
      ),
    );
    expect(new Set(await Promise.all(attempts))).toEqual(new Set(['malformed']));
    expect(readdirSync(store.stagingDir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('StagedFileStore.sweep and publish', () => {
  it("publishes a live instance's committed file, leaves its uncommitted one, and its own publish still succeeds", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stage-'));
    try {
      const live = new StagedFileStore(dir); // another instance, alive, between its commit and its publish
      const [committed, inFlight] = [StagedFileStore.newName(), StagedFileStore.newName()];
      await live.stage(committed, [Buffer.from('committed')]);
      await live.stage(inFlight, [Buffer.from('not yet')]);
      const starting = new StagedFileStore(dir);
      const known = async (names: string[]) => new Set(names.filter((name) => name === committed));
      expect(await starting.sweep(known)).toEqual({ removed: 0, published: 1 });
      expect(readFileSync(live.finalPath(committed), 'utf8')).toBe('committed');
      expect(readdirSync(live.stagingDir)).toEqual([inFlight]);
      await expect(live.publish([committed])).resolves.toBeUndefined();
      expect(readFileSync(live.finalPath(committed), 'utf8')).toBe('committed');
      // A file published by nobody is still a failure of publish.
      await expect(live.publish([StagedFileStore.newName()])).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stagingHost', () => {
  it.runIf(process.platform === 'linux')('names the pid namespace beside the host name on Linux', async () => {
    const { readlinkSync } = await import('node:fs');
    const namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))![1];
    expect(stagingHost).toBe(`${hostname()}~${namespace}`);
    const store = new StagedFileStore('/nowhere');
    const [pid, host] = path.basename(store.stagingDir).split('@');
    expect([pid!.split('.')[0], host]).toEqual([String(process.pid), stagingHost]);
  });
});
