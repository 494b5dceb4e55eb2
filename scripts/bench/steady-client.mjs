// A load generator for latency at a steady rate, run as its own process by news-at-scale.mjs
// (steadyLatencies): `node steady-client.mjs '<json>'` with { host, port, path, headers, perSecond,
// seconds, connections }; prints the latencies (ms, one per request) as a JSON array.
//
// Why not autocannon, or node:http in the bench's own process: autocannon's rate sends each
// connection's share of a second back to back as the second begins (a burst's queue, not a steady
// rate) and counts whole milliseconds; node:http in the bench's process allocated some 20 kB a
// request, which made its garbage collector stop that process for 7-10 ms twice a second
// (`--trace-gc`), and every answer read in a pause looked that much slower. Here every connection
// reads into one buffer of its own (net's `onread`), so reading an answer allocates next to nothing,
// and the process holds little else.
import net from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * @type {{ host: string, port: number, path: string, headers: Record<string, string>, perSecond: number,
 *   seconds: number, connections: number }}
 */
const { host, port, path, headers, perSecond, seconds, connections } = JSON.parse(process.argv[2]);
const request = Buffer.from(
  `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n',
  'latin1',
);
const HEADER_END = Buffer.from('\r\n\r\n');

// The first second is not counted: a fresh process compiles its code as it goes, and its first
// answers are read slower.
const warmUp = Math.round(perSecond);
const total = warmUp + Math.round(perSecond * seconds);
/** @typedef {{ send: (issuedAt: number) => void, close: () => void }} Connection */
/** @type {number[]} */
const latencies = [];
/**
 * When each request waiting for a free connection was issued (performance.now()).
 * @type {number[]}
 */
const waiting = [];
/** @type {Connection[]} */
const idle = [];
let answered = 0;
/** @type {{ resolve: (value: void) => void, reject: (reason: unknown) => void }} */
let finish;
/** @type {Promise<void>} */
const done = new Promise((resolve, reject) => (finish = { resolve, reject }));

/**
 * One kept-alive connection: one request at a time, its answer read into the connection's own buffer.
 * @returns {Promise<Connection>}
 */
function connect() {
  return new Promise((resolve, reject) => {
    /** @type {{ issuedAt: number, head: Buffer[], headLength: number, remaining: number }} */
    const state = { issuedAt: 0, head: [], headLength: 0, remaining: -1 };
    const socket = net.connect({
      host,
      port,
      noDelay: true,
      // @ts-expect-error -- @types/node wants a boolean from callback, but Node only pauses on false; undefined is fine
      onread: /** @type {import('node:net').OnReadOpts} */ ({
        buffer: Buffer.allocUnsafe(64 * 1024),
        /**
         * @param {number} length
         * @param {Buffer} buffer the one above
         */
        callback(length, buffer) {
          let at = 0;
          if (state.remaining < 0) {
            // Still in the head (a few hundred bytes): found in this read alone, mostly; when it
            // is split across reads, its parts are kept until the blank line.
            const read = buffer.subarray(0, length);
            const head = state.headLength === 0 ? read : Buffer.concat([...state.head, read]);
            const end = head.indexOf(HEADER_END);
            if (end < 0) {
              state.head.push(Buffer.from(read));
              state.headLength += length;
              return;
            }
            const text = head.toString('latin1', 0, end);
            const status = Number(text.slice(9, 12));
            const size = /\r\ncontent-length:\s*(\d+)/i.exec(text);
            if (status !== 200 || !size) {
              finish.reject(new Error(`GET ${path} answered ${status}${size ? '' : ' without Content-Length'}`));
              return;
            }
            state.remaining = Number(size[1]);
            at = end + HEADER_END.length - state.headLength;
            state.head = [];
            state.headLength = 0;
          }
          state.remaining -= length - at;
          if (state.remaining > 0) return;
          if (state.remaining < 0) finish.reject(new Error(`GET ${path}: more bytes than its Content-Length`));
          latencies.push(performance.now() - state.issuedAt);
          state.remaining = -1;
          answered += 1;
          if (answered === total) finish.resolve();
          else free(connection);
        },
      }),
    });
    /** @type {Connection} */
    const connection = {
      send(issuedAt) {
        state.issuedAt = issuedAt;
        socket.write(request);
      },
      close: () => socket.destroy(),
    };
    socket.once('connect', () => resolve(connection));
    socket.on('error', (error) => {
      reject(error);
      finish.reject(error);
    });
  });
}

/**
 * A connection whose answer has come: the next waiting request, or the idle list.
 * @param {Connection} connection
 */
function free(connection) {
  if (waiting.length > 0) connection.send(/** @type {number} */ (waiting.shift()));
  else idle.push(connection);
}

const all = await Promise.all(Array.from({ length: connections }, connect));
idle.push(...all);
const started = performance.now();
let sent = 0;
// Each request is timed from when it was issued, so one that waited for a free connection (all of
// them waiting for a server that stalled) counts its wait; a timer that woke late does not count.
while (sent < total) {
  const now = performance.now();
  const due = Math.min(total, Math.floor(((now - started) / 1000) * perSecond) + 1);
  for (; sent < due; sent++) {
    const connection = idle.pop();
    if (connection) connection.send(now);
    else waiting.push(now);
  }
  const next = started + (sent / perSecond) * 1000 - performance.now();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, next)));
}
await done;
for (const connection of all) connection.close();
process.stdout.write(JSON.stringify(latencies.slice(warmUp)));
