// Sizes of the built web app (packages/web/dist), as a browser downloads them: gzip level 9.
//
// Home page: every script (src), stylesheet (link rel=stylesheet) and module preload
// (link rel=modulepreload) that dist/index.html names, plus the chunks those import statically
// (a browser fetches a module's static imports before running it; Vite normally lists them as
// modulepreloads, this follows them in case it does not).
//
// PDF viewer: a file holds pdf.js when it carries pdf.js's internal `pdfjs_internal_` markers (they
// survive minification); the main-thread library is the one that also defines `GlobalWorkerOptions`,
// the worker is the other one (it has no GlobalWorkerOptions).
// The viewer's chunk is the JS file holding the library, plus whatever it and the viewer's route
// chunk import that the home page has not loaded already. When the library sits in a file the home
// page loads, pdf.js was not split off, and the report says so.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const gzipBytes = (/** @type {Buffer} */ buffer) => gzipSync(buffer, { level: 9 }).length;

/**
 * `src`/`href` values of the tags index.html loads up front, same-origin only.
 * @param {string} html
 */
export function homePageAssets(html) {
  const urls = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attribute = (/** @type {string} */ name) =>
      new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
    if (/^<script/i.test(tag)) {
      const src = attribute('src');
      if (src) urls.push(src);
    } else {
      const rel = (attribute('rel') ?? '').toLowerCase().split(/\s+/);
      const href = attribute('href');
      if (href && (rel.includes('stylesheet') || rel.includes('modulepreload'))) urls.push(href);
    }
  }
  return urls.filter((url) => !/^[a-z]+:|^\/\//i.test(url));
}

/**
 * Relative JS files a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`).
 * @param {string} code
 */
function staticImports(code) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const m of code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g)) found.add(m[1]);
  return [...found];
}

/**
 * Relative JS files a chunk imports dynamically (`import("./x.js")`, Vite's `__vite__mapDeps` lists).
 * @param {string} code
 */
function dynamicImports(code) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const m of code.matchAll(/["'](\.{0,2}\/?(?:assets\/)?[\w.-]+\.js)["']/g)) found.add(m[1]);
  return [...found];
}

/**
 * @param {string} distDir packages/web/dist
 */
export function measureWebSizes(distDir) {
  const dist = path.resolve(distDir);
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) return { error: `${indexFile} is missing (build the web app)` };
  const html = readFileSync(indexFile, 'utf8');
  const fileOf = (/** @type {string} */ url) => path.join(dist, url.replace(/^\//, '').split(/[?#]/)[0]);

  // The home page's files and, transitively, their static imports.
  /** @type {Map<string, { url: string, raw: number, gzip: number }>} */
  const home = new Map(); // absolute file → { url, raw, gzip }
  const queue = homePageAssets(html).map(fileOf);
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (home.has(file) || !existsSync(file)) continue;
    const raw = readFileSync(file);
    home.set(file, { url: '/' + path.relative(dist, file), raw: raw.length, gzip: gzipBytes(raw) });
    if (file.endsWith('.js')) {
      for (const spec of staticImports(raw.toString())) queue.push(path.resolve(path.dirname(file), spec));
    }
  }
  const homeFiles = [...home.values()];
  const homeGzip = homeFiles.reduce((sum, f) => sum + f.gzip, 0);
  const homeRaw = homeFiles.reduce((sum, f) => sum + f.raw, 0);

  // Every JS file of the build, and which of them hold pdf.js.
  const assetsDir = path.join(dist, 'assets');
  const jsFiles = existsSync(assetsDir)
    ? readdirSync(assetsDir)
        .filter((n) => /\.m?js$/.test(n))
        .map((n) => path.join(assetsDir, n))
    : [];
  const isPdfjs = (/** @type {string} */ code) => code.includes('pdfjs_internal_') || code.includes('pdfjsVersion');
  const libraries = [];
  const workers = [];
  for (const file of jsFiles) {
    const code = readFileSync(file, 'utf8');
    if (!isPdfjs(code)) continue;
    if (code.includes('GlobalWorkerOptions')) libraries.push(file);
    else workers.push(file);
  }
  const size = (/** @type {string} */ file) => {
    const raw = readFileSync(file);
    return { file: path.relative(dist, file), raw: raw.length, gzip: gzipBytes(raw) };
  };

  let viewer = null;
  if (libraries.length > 0) {
    const library = libraries.map(size).sort((a, b) => b.raw - a.raw)[0];
    const libraryFile = path.join(dist, library.file);
    const inHomePage = home.has(libraryFile);
    // The viewer's route chunk: a JS file that imports the library's file (statically or dynamically).
    const libraryName = path.basename(libraryFile);
    const routeChunks = jsFiles.filter(
      (f) =>
        f !== libraryFile &&
        !home.has(f) &&
        [...staticImports(readFileSync(f, 'utf8')), ...dynamicImports(readFileSync(f, 'utf8'))].some(
          (s) => path.basename(s) === libraryName,
        ),
    );
    const extra = [libraryFile, ...routeChunks].filter((f) => !home.has(f));
    // …and what those import statically that the home page did not bring.
    for (let i = 0; i < extra.length; i++) {
      for (const spec of staticImports(readFileSync(extra[i], 'utf8'))) {
        const dep = path.resolve(path.dirname(extra[i]), spec);
        if (existsSync(dep) && !home.has(dep) && !extra.includes(dep)) extra.push(dep);
      }
    }
    const parts = extra.map(size);
    viewer = {
      library,
      inHomePage,
      files: parts,
      gzip: parts.reduce((s, p) => s + p.gzip, 0),
      raw: parts.reduce((s, p) => s + p.raw, 0),
    };
  }
  const worker = workers.length > 0 ? workers.map(size).sort((a, b) => b.raw - a.raw)[0] : null;
  const allJsGzip = jsFiles.reduce((s, f) => s + gzipBytes(readFileSync(f)), 0);
  return {
    homeFiles,
    homeGzip,
    homeRaw,
    viewer,
    worker,
    jsFileCount: jsFiles.length,
    allJsGzip,
    mtime: statSync(indexFile).mtime,
  };
}

/**
 * What the server actually sends for those files to a browser that accepts brotli and gzip: the
 * bytes on the wire (body as received, not decoded) and the Content-Encoding of each answer.
 * @param {string} base the product's origin
 * @param {string[]} urls paths such as /assets/index-….js
 */
export async function measureWireBytes(base, urls) {
  const files = [];
  for (const url of urls) {
    /** @type {{ status: number | undefined, encoding: string, bytes: number }} */
    const { status, encoding, bytes } = await new Promise((resolve, reject) => {
      const request = http.get(base + url, { agent: false, headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({ status: response.statusCode, encoding: response.headers['content-encoding'] ?? 'identity', bytes }),
        );
        response.on('error', reject);
      });
      request.setTimeout(30_000, () => request.destroy(new Error(`GET ${url} timed out`)));
      request.on('error', reject);
    });
    files.push({ url, status, encoding, bytes });
  }
  return { files, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}
