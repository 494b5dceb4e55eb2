// The news list at scale (docs/benchmarks.md, section 7 of the run): a store of many items and files, made quickly, and the calls
// the section measures on it.
//
// A store: the product starts once on a fresh DATA_DIR (its migrations run) and the author registers
// over HTTP; it stops, and the rows go straight into DATA_DIR/app.db with better-sqlite3 (the server's
// own driver), in one transaction with prepared statements, and news_revision is raised as the
// repository says a change made by hand must. Posting 100,000 items over HTTP would take a long time
// (each post syncs its files and its commit to disk).
//
// Every row's file exists under DATA_DIR/uploads/<storage_name>: the server's start-up sweep keeps
// a file only when its row exists (storage/staged-files.ts), and a row without its file would answer
// 404 on download. The files are hard links to 64 tiny files (16–64 bytes): on this benchmark's
// (shared, busy) machine 200,000 files written one by one took 29 s, the links 11 s; to the server a
// link is a file like any other (a name in the folder, its size, its bytes). Removing them is slow
// too (node's recursive rmSync took minutes for 200,000), so `removeUploads` runs `rm -rf` on them,
// also at clean-up, before the temporary directory's own removal.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { apiPaths } from '@hello/contract';
import { addNews, fetchBytes, refusedNews, registerUser } from './fixtures.mjs';
import { finished, onCleanup, startChild, tempDir } from './processes.mjs';
import { ROOT, startServer } from './server.mjs';
import { mean, percentile } from './stats.mjs';

/**
 * better-sqlite3 as the server resolves it (a dependency of packages/server, not of the root).
 * @type {typeof import('better-sqlite3')}
 */
const SQLite = createRequire(path.join(ROOT, 'packages/server/package.json'))('better-sqlite3');

/** Files per item, as the store has them (100,000 items, 200,000 files). */
export const FILES_PER_ITEM = 2;
const SOURCE_FILES = 64; // ext4 allows 65,000 links to one file; 64 sources stay far below that

// --- Text: titles and contents that read like local news ---------------------------------------
// Built from a seeded generator, so every run stores the same text and the page sizes compare from
// run to run. Templates repeat across items, so a page compresses somewhat better than real prose
// would: the report gives the uncompressed size beside the compressed one.

/**
 * mulberry32: a small seeded generator of numbers in [0, 1).
 * @param {number} seed
 */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Word lists, one line each.
// prettier-ignore
const words = {
  place: ['Riverside', 'Old Town', 'the harbour', 'Northgate', 'Millbrook', 'the market square', 'Elm Street', 'the station quarter', 'Hillcrest', 'the east bank', 'Westfield', 'Brookside', 'the industrial estate', 'Castle Hill', 'Meadowbank', 'the canal path', 'Southend Road', 'the old mill', 'Kingsmead', 'Ashby Green'],
  subject: ['Library', 'Town council', 'Primary school', 'Bakery', 'Football club', "Farmers' market", 'Choir', 'Swimming pool', 'Community garden', 'Fire brigade', 'Museum', 'Cycling club', 'Youth theatre', 'Bus company', 'Animal shelter', 'Health centre', 'Chess club', 'Food bank', 'Allotment society', 'Brass band', 'Repair café', 'Rowing club', 'Parish hall', 'Cinema'],
  action: ['extends its opening hours', 'opens a new wing', 'asks residents for ideas', 'celebrates fifty years', 'closes for repairs until spring', 'wins a regional award', 'plans a summer festival', 'looks for volunteers', 'moves to a new address', 'reports record visitor numbers', 'raises money for a new roof', 'starts evening classes', 'welcomes a new director', 'changes its timetable', 'holds an open day', 'gets a grant for solar panels', 'needs more space', 'invites families to a picnic'],
  first: ['Anna', 'Ben', 'Carla', 'David', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Katrin', 'Luca', 'Maya', 'Noah', 'Olga', 'Pavel', 'Rosa', 'Samir', 'Tara', 'Yusuf'],
  last: ['Berger', 'Okafor', 'Lindqvist', 'Moreau', 'Novak', 'Haddad', 'Schmidt', 'Costa', 'Jansen', 'Kowalski', 'Tanaka', 'Murphy', 'Rossi', 'Petrov', 'Andersen', 'Fischer'],
  weekday: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  month: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  thing: ['the new benches', 'the parking rules', 'the playground', 'the winter timetable', 'the recycling bins', 'the street lights', 'the reading room', 'the cycle lane', 'the bus shelter', 'the tennis courts', 'the roof', 'the heating', 'the café', 'the footbridge'],
  feeling: ['pleased', 'surprised', 'relieved', 'cautious', 'hopeful', 'delighted', 'worried', 'proud'],
};

/** @param {number} seed */
function textMaker(seed) {
  const random = generator(seed);
  /**
   * @template T
   * @param {T[]} list
   * @returns {T}
   */
  const pick = (list) => list[Math.floor(random() * list.length)];
  const number = (/** @type {number} */ low, /** @type {number} */ high) =>
    low + Math.floor(random() * (high - low + 1));
  const person = () => `${pick(words.first)} ${pick(words.last)}`;
  /** @type {Array<(subject: string) => string>} */
  const sentences = [
    (s) =>
      `The ${s.toLowerCase()} said on ${pick(words.weekday)} that ${number(12, 900)} people had come since ${pick(words.month)}.`,
    () =>
      `"We are ${pick(words.feeling)} with how it went," said ${person()}, who has lived near ${pick(words.place)} for ${number(2, 40)} years.`,
    () =>
      `Work on ${pick(words.thing)} starts on ${pick(words.weekday)} ${number(1, 28)} ${pick(words.month)} and should take about ${number(2, 11)} weeks.`,
    () =>
      `Residents of ${pick(words.place)} can send their questions to the office before ${pick(words.month)}; answers will be posted here.`,
    (s) => `${person()} of the ${s.toLowerCase()} thanked the ${number(3, 60)} volunteers who gave up their weekends.`,
    () =>
      `Tickets cost ${number(2, 15)} euros, children under ${number(6, 12)} go free, and the doors open at ${number(9, 19)}:${pick(['00', '15', '30', '45'])}.`,
    () =>
      `The council will discuss ${pick(words.thing)} at its meeting on ${pick(words.weekday)}, which anyone may attend.`,
    () =>
      `Last year the same event drew ${number(40, 2500)} visitors from ${pick(words.place)} and ${pick(words.place)}.`,
    () =>
      `A bus will run every ${number(10, 40)} minutes from ${pick(words.place)} while ${pick(words.thing)} stays closed.`,
    (s) =>
      `Anyone who wants to help the ${s.toLowerCase()} can call in on a ${pick(words.weekday)} morning or write to ${pick(words.first).toLowerCase()}@example.org.`,
  ];
  return {
    title() {
      const subject = pick(words.subject);
      const title =
        random() < 0.5
          ? `${subject} in ${pick(words.place)} ${pick(words.action)}`
          : `${pick(words.place)}: ${subject.toLowerCase()} ${pick(words.action)}`;
      return { subject, title: title[0].toUpperCase() + title.slice(1) };
    },
    /**
     * A few sentences, from 300 to some 750 characters.
     * @param {string} subject
     */
    content(subject) {
      const parts = [];
      let length = 0;
      const target = number(300, 600);
      while (length < target) {
        const sentence = pick(sentences)(subject);
        parts.push(sentence);
        length += sentence.length + 1;
      }
      return parts.join(' ');
    },
    number,
  };
}

// --- The store ----------------------------------------------------------------------------------

/**
 * The 64 tiny files every attachment links to: text of 16–64 bytes (the server sniffs text/plain).
 * @param {string} dir
 * @returns {Array<{ file: string, size: number }>}
 */
function writeSourceFiles(dir) {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: SOURCE_FILES }, (_, k) => {
    const file = path.join(dir, `source-${k}.txt`);
    const bytes = Buffer.from(`attachment ${k} `.padEnd(16 + ((k * 7) % 49), '.'));
    writeFileSync(file, bytes);
    return { file, size: bytes.length };
  });
}

/**
 * Inserts `items` news items with FILES_PER_ITEM files each into DATA_DIR/app.db (the server must not
 * be running), by `authorId`, created_at spread over the past (a minute to half an hour apart,
 * now and then two at the same instant, so that the list's order by (created_at, id) has ties to
 * break), and links each file into DATA_DIR/uploads.
 * @param {string} dataDir
 * @param {number} authorId
 * @param {number} items
 * @returns {Promise<{ databaseMs: number, filesMs: number, firstId: number, lastId: number, files: number }>}
 */
export async function seedNews(dataDir, authorId, items) {
  const text = textMaker(0x5eed);
  const sources = writeSourceFiles(path.join(path.dirname(dataDir), 'attachment-sources'));
  const names = randomBytes(16 * items * FILES_PER_ITEM).toString('hex');
  const nameOf = (/** @type {number} */ index) => names.slice(index * 32, index * 32 + 32);

  // Times from the oldest to a minute ago, so that items posted during the run are the newest.
  const times = new Array(items);
  let at = Date.now() - 60_000;
  for (let i = items - 1; i >= 0; i--) {
    times[i] = new Date(at).toISOString();
    if (text.number(1, 40) > 1) at -= text.number(60, 1800) * 1000 + text.number(0, 999);
  }

  let started = performance.now();
  const db = new SQLite(path.join(dataDir, 'app.db'));
  let firstId = 0;
  let lastId = 0;
  try {
    // A bench store: no fsync while it is filled (the commit still reaches the file).
    db.pragma('synchronous = OFF');
    const insertItem = db.prepare('INSERT INTO news_items (author_id, title, content, created_at) VALUES (?, ?, ?, ?)');
    const insertFile = db.prepare(
      'INSERT INTO news_files (news_id, storage_name, original_name, size, content_type, position) VALUES (?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let i = 0; i < items; i++) {
        const { subject, title } = text.title();
        const id = Number(insertItem.run(authorId, title, text.content(subject), times[i]).lastInsertRowid);
        if (i === 0) firstId = id;
        lastId = id;
        for (let position = 0; position < FILES_PER_ITEM; position++) {
          const index = i * FILES_PER_ITEM + position;
          const original = position === 0 ? `notice-${id}.txt` : `timetable-${id}.txt`;
          insertFile.run(id, nameOf(index), original, sources[index % SOURCE_FILES].size, 'text/plain', position);
        }
      }
      // A change made by hand raises the list's revision (repositories/news.ts, newsRevision).
      db.prepare('UPDATE news_revision SET revision = revision + 1 WHERE id = 1').run();
    })();
  } finally {
    db.close();
  }
  const databaseMs = performance.now() - started;

  started = performance.now();
  const uploads = path.join(dataDir, 'uploads');
  mkdirSync(uploads, { recursive: true });
  for (let index = 0; index < items * FILES_PER_ITEM; index++) {
    linkSync(sources[index % SOURCE_FILES].file, path.join(uploads, nameOf(index)));
    // Now and then back to the event loop, so that Ctrl-C is heard within a second.
    if (index % 10_000 === 9_999) await new Promise((resolve) => setImmediate(resolve));
  }
  return { databaseMs, filesMs: performance.now() - started, firstId, lastId, files: items * FILES_PER_ITEM };
}

/**
 * The id of the user registered as `email` (addresses are unique by their lower-cased key).
 * @param {string} dataDir
 * @param {string} email
 */
function userId(dataDir, email) {
  const db = new SQLite(path.join(dataDir, 'app.db'), { readonly: true });
  try {
    const row = /** @type {{ id: number | bigint } | undefined} */ (
      db.prepare('SELECT id FROM users WHERE email_key = ?').get(email.toLowerCase())
    );
    if (!row) throw new Error(`user ${email} is not in ${dataDir}/app.db`);
    return Number(row.id);
  } finally {
    db.close();
  }
}

/**
 * A product server over a store of `items` news items: started once on a fresh DATA_DIR (migrations,
 * the author registered over HTTP), stopped, seeded, and started again; returned running.
 * @returns {Promise<{ server: Awaited<ReturnType<typeof startServer>>, user: Awaited<ReturnType<typeof registerUser>>,
 *   dataDir: string, seed: Awaited<ReturnType<typeof seedNews>>, seedMs: number, startMs: number, prepareMs: number }>}
 * @param {number} items
 * @param {string} label
 */
export async function startNewsStore(items, label) {
  const started = performance.now();
  const dataDir = path.join(tempDir(label), 'data');
  const first = await startServer(dataDir, { label: `${label} (first start)` });
  let user;
  try {
    user = await registerUser(first.url);
  } finally {
    await first.stop();
  }
  // Removed by `rm -rf` at clean-up, even when the run is interrupted (see the header).
  onCleanup(() => removeUploads(dataDir));
  const seedStarted = performance.now();
  const seed = await seedNews(dataDir, userId(dataDir, user.email), items);
  const seedMs = performance.now() - seedStarted;
  const server = await startServer(dataDir, { label });
  return { server, user, dataDir, seed, seedMs, startMs: server.readyMs, prepareMs: performance.now() - started };
}

/**
 * Removes DATA_DIR/uploads with `rm -rf`, far faster than node's recursive rmSync on 200,000 names.
 * @param {string} dataDir
 */
export async function removeUploads(dataDir) {
  const started = performance.now();
  const tracked = startChild('rm uploads', 'rm', ['-rf', path.join(dataDir, 'uploads')]);
  await finished(tracked.child);
  return performance.now() - started;
}

// --- The calls ------------------------------------------------------------------------------------

/** Headers of every list call: the token, and the encodings a browser accepts. */
export const browserHeaders = (/** @type {string} */ access) => ({
  authorization: `Bearer ${access}`,
  'accept-encoding': 'br, gzip',
});

/**
 * The URL of `rel="next"` in a Link header, resolved against `base`; undefined when there is none.
 * @param {string | undefined} header
 * @param {string} base
 */
export function nextLink(header, base) {
  const match = /<([^>]*)>\s*;\s*rel="?next"?/i.exec(header ?? '');
  return match ? new URL(match[1], base).href : undefined;
}

/**
 * One GET as a browser sends it (Accept-Encoding: br, gzip): the bytes on the wire (the body as
 * received, before decoding), its encoding, and the decoded JSON's size and item count.
 * @param {string} url
 * @param {string} access
 */
export async function pageOnTheWire(url, access) {
  const { status, headers, body, wireBytes } = await rawGet(url, browserHeaders(access));
  if (status !== 200) throw new Error(`GET ${url} answered ${status}`);
  const encoding = headers['content-encoding'] ?? 'identity';
  const json = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  const parsed = JSON.parse(json.toString());
  return {
    encoding,
    wireBytes,
    jsonBytes: json.length,
    items: Array.isArray(parsed) ? parsed.length : 1,
    // node:http joins repeated Link headers into one string (only Set-Cookie is kept as an array).
    link: /** @type {string | undefined} */ (headers.link),
    body: parsed,
  };
}

/**
 * A GET over node:http: the body as sent (compressed), where fetch would decode it on the way.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number | undefined, headers: import('node:http').IncomingHttpHeaders, body: Buffer,
 *   wireBytes: number }>}
 */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode, headers: response.headers, body, wireBytes: body.length });
      });
      response.on('error', reject);
    });
    // A server that answers the whole list (as the product did before the list was paged) may take long over a big store.
    request.setTimeout(120_000, () => request.destroy(new Error(`GET ${url} timed out after 120 s`)));
    request.on('error', reject);
  });
}

/**
 * Follows the list's Link header `hops` times from the first page: the URL of page hops + 1, or
 * undefined (and how far it got) when a page has no next link.
 * @param {string} base
 * @param {string} access
 * @param {number} hops
 */
export async function followNext(base, access, hops) {
  let url = base + apiPaths.localNews;
  for (let hop = 0; hop < hops; hop++) {
    const page = await fetchBytes(url, { authorization: `Bearer ${access}`, 'accept-encoding': 'identity' });
    if (page.status !== 200) throw new Error(`GET ${url} answered ${page.status}`);
    const next = nextLink(page.headers.link, base);
    if (!next) return { url: undefined, pages: hop + 1 };
    url = next;
  }
  return { url, pages: hops + 1 };
}

/**
 * Latency as one reader sees it: `count` GETs sent one after another on one kept-alive connection
 * (the next when the last has been read to its end), timed to the microsecond; `urlFor(i)` gives
 * the i-th URL. Mean, p50 and p99 in ms.
 * @param {(i: number) => string} urlFor
 * @param {Record<string, string>} headers
 * @param {number} count
 */
export async function sequentialLatency(urlFor, headers, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = new Array(count);
  try {
    for (let i = 0; i < count; i++) {
      const url = urlFor(i);
      const started = performance.now();
      const status = await new Promise((resolve, reject) => {
        const request = http.get(url, { agent, headers }, (response) => {
          response.on('data', () => {});
          response.on('end', () => resolve(response.statusCode));
          response.on('error', reject);
        });
        request.on('error', reject);
      });
      times[i] = performance.now() - started;
      if (status !== 200) throw new Error(`GET ${url} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
  return { mean: mean(times), p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/**
 * Latency at a steady rate: GETs of `url` sent `perSecond` a second, evenly (each when its time has
 * come, whether or not the ones before it were answered), over `connections` kept-alive connections,
 * for `seconds`; each timed from its issue to its answer's last byte, to the microsecond. Run by a
 * process of its own (steady-client.mjs says why), which inherits this one's cores. Returns every
 * latency in ms, for the caller to pool and take percentiles of.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} perSecond
 * @param {number} seconds
 * @returns {Promise<number[]>}
 */
export async function steadyLatencies(url, headers, perSecond, seconds, connections = 10) {
  const { hostname: host, port, pathname, search } = new URL(url);
  const options = { host, port: Number(port), path: pathname + search, headers, perSecond, seconds, connections };
  const tracked = startChild('steady client', process.execPath, [
    path.join(import.meta.dirname, 'steady-client.mjs'),
    JSON.stringify(options),
  ]);
  /** @type {Buffer[]} */
  const stdout = [];
  tracked.child.stdout?.on('data', (chunk) => stdout.push(chunk));
  await finished(tracked.child);
  if (tracked.child.exitCode !== 0) throw new Error(`the steady client failed:\n${tracked.output()}`);
  return JSON.parse(Buffer.concat(stdout).toString());
}

/**
 * A random item's URL of ids [firstId, lastId] each time it is called.
 * @param {string} base
 * @param {number} firstId
 * @param {number} lastId
 */
export function randomItemUrl(base, firstId, lastId) {
  return () =>
    base + apiPaths.localNewsItem.replace(':id', String(firstId + Math.floor(Math.random() * (lastId - firstId + 1))));
}

/**
 * autocannon requests for one random item of ids [firstId, lastId] each time.
 * @param {string} access
 * @param {number} firstId
 * @param {number} lastId
 * @returns {import('autocannon').Request[]}
 */
export function randomItemRequests(access, firstId, lastId) {
  const itemPath = (/** @type {number} */ id) => apiPaths.localNewsItem.replace(':id', String(id));
  return [
    {
      method: 'GET',
      path: itemPath(firstId),
      headers: browserHeaders(access),
      setupRequest: (request) => ({
        ...request,
        path: itemPath(firstId + Math.floor(Math.random() * (lastId - firstId + 1))),
      }),
    },
  ];
}

/**
 * Posts one news item (multipart, one small file, the Token header: fixtures.mjs addNews) every
 * 1000 / perSecond ms until stopped, without waiting for the previous one, so the rate holds when a
 * post is slow; a timer that fired late (a busy event loop) is caught up, so `perSecond` holds on
 * average. stop() counts the answers that came while it ran (`inTime`), then waits for the rest.
 * With `refused`, the same post is sent so that the product refuses it before storing anything
 * (fixtures.mjs refusedNews), and its 400s are counted instead.
 * @param {string} base
 * @param {string} refresh
 * @param {number} perSecond
 * @param {boolean} [refused]
 */
export function postAtRate(base, refresh, perSecond, refused = false) {
  const counts = { sent: 0, created: 0, inTime: 0, failed: 0, firstFailure: '' };
  /** @type {Set<Promise<void>>} */
  const pending = new Set();
  const started = performance.now();
  let stopped = false;
  const send = () => {
    counts.sent += 1;
    const post = (refused ? refusedNews(base, refresh) : addNews(base, refresh, 1)).then(
      () => {
        counts.created += 1;
        if (!stopped) counts.inTime += 1;
      },
      (error) => {
        counts.failed += 1;
        counts.firstFailure ||= String(error?.message ?? error).split('\n')[0];
      },
    );
    pending.add(post);
    post.finally(() => pending.delete(post));
  };
  const timer = setInterval(
    () => {
      const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
      while (counts.sent < due) send();
    },
    1000 / perSecond / 2,
  );
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(pending);
      return { ...counts, seconds, perSecond: counts.inTime / seconds };
    },
  };
}
