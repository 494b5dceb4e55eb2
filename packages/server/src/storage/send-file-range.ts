import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

const CHUNK_BYTES = 64 * 1024;
/** Free buffers beyond this many are left to the garbage collector: 32 × 64 KiB = 2 MiB kept at most. */
const MAX_IDLE_BUFFERS = 32;

/**
 * How long one chunk (64 KiB) may wait for the client to take it. A client that reads the headers and
 * then stops reading would otherwise hold the file and two buffers for as long as it keeps the socket
 * open. So a client slower than about 1 KB/s is cut off too: no connection a person reads on.
 */
export const DRAIN_TIMEOUT_MS = 60_000;
/** The bound sendFileRange uses by default; a test shortens it rather than waiting a minute. */
export const sendFileLimits = { drainTimeoutMs: DRAIN_TIMEOUT_MS };

/** Buffers that no response is using; each response in flight takes two and gives them back at its end. */
const idleBuffers: Buffer[] = [];
let buffersCreated = 0;

/** How many chunk buffers were ever made, and how many wait to be reused (the unit test checks reuse with it). */
export const chunkBufferStats = () => ({ created: buffersCreated, idle: idleBuffers.length });

function takeBuffer(): Buffer {
  const reused = idleBuffers.pop();
  if (reused) return reused;
  buffersCreated += 1;
  return Buffer.allocUnsafeSlow(CHUNK_BYTES);
}

/**
 * Writes bytes `start` to `end` (inclusive) of an open file as the response's body, then ends it.
 * Two buffers take turns: the next chunk is read into one while the socket writes the other, and a
 * buffer is filled again only after the write callback of its last chunk (the kernel has the bytes).
 * `fs.createReadStream` allocates a fresh buffer per chunk instead, and serving a 5 MiB PDF flat out
 * left many of them waiting for the garbage collector: RSS rose while serving.
 * The headers must have been set (`writeHead`). Rejects if the file cannot be read or the client goes
 * away; the caller then destroys the response. A client that takes less than a chunk in `drainTimeoutMs`
 * has its response destroyed here, and the call rejects. The handle is not closed here.
 */
export async function sendFileRange(
  res: ServerResponse,
  handle: FileHandle,
  start: number,
  end: number,
  drainTimeoutMs: number = sendFileLimits.drainTimeoutMs,
): Promise<void> {
  const buffers = [takeBuffer(), takeBuffer()];
  // A write's callback comes even when the client goes away; this is only a guard against one that
  // never does, which would hold the file open for ever.
  let onClose!: () => void;
  const closed = new Promise<never>((_resolve, reject) => {
    onClose = () => reject(new Error('the response was closed before its end'));
    res.once('close', onClose);
  });
  closed.catch(() => {});
  // The write callback of a client that stops reading never comes, nor does 'close' while it keeps the
  // socket open: each wait is bounded, then the response destroyed.
  let onStall!: () => void;
  const stalled = new Promise<never>((_resolve, reject) => {
    onStall = () => {
      reject(new Error(`the client took less than a chunk in ${drainTimeoutMs} ms`));
      res.destroy();
    };
  });
  stalled.catch(() => {});
  const timer = setTimeout(onStall, drainTimeoutMs);
  const done = (write: Promise<void>) => {
    timer.refresh(); // counts from the start of this wait
    return Promise.race([write, closed, stalled]);
  };
  let writing: Promise<void> | undefined;
  try {
    for (let position = start, turn = 0; position <= end; turn ^= 1) {
      const buffer = buffers[turn]!; // free: the write of its previous chunk has called back
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, end - position + 1), position);
      if (bytesRead === 0) throw new Error(`file ended at byte ${position}, before byte ${end}`);
      position += bytesRead;
      const written = write(res, buffer.subarray(0, bytesRead));
      if (writing) await done(writing); // the other buffer is free once its write has called back
      writing = written;
    }
    if (writing) await done(writing);
    writing = undefined;
    await done(new Promise<void>((resolve) => res.end(resolve)));
  } finally {
    clearTimeout(timer);
    res.removeListener('close', onClose);
    // After a failure a write may still hold a buffer: those are left to the garbage collector.
    if (writing === undefined)
      for (const buffer of buffers) if (idleBuffers.length < MAX_IDLE_BUFFERS) idleBuffers.push(buffer);
  }
}

/** The write as a promise, already marked handled: after a failure nobody may wait for it any more. */
function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  const written = new Promise<void>((resolve, reject) => {
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
  written.catch(() => {});
  return written;
}
