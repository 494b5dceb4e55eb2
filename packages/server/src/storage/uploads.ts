import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SNIFF_BYTES, sniffContentType } from './sniff.js';
import { StagedFileStore, type KnownNames } from './staged-files.js';

export interface StagedUpload {
  storageName: string;
  size: number;
  /** Sniffed from the bytes, never taken from the client. */
  contentType: string;
}

/**
 * News attachments in DATA_DIR/uploads under random names. A file is streamed to disk chunk by chunk
 * (never held whole in memory); the multipart parser stops it at MAX_UPLOAD_FILE_BYTES while it streams.
 */
export function createUploadStore(dataDir: string) {
  const files = new StagedFileStore(path.join(dataDir, 'uploads'));

  return {
    dir: files.dir,
    /** Streams one file into staging, counting its bytes and keeping its first bytes for sniffing. */
    async stage(source: Readable): Promise<StagedUpload> {
      const storageName = StagedFileStore.newName();
      let size = 0;
      const head: Buffer[] = [];
      let headLength = 0;
      async function* observe(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          if (headLength < SNIFF_BYTES) {
            head.push(chunk.subarray(0, SNIFF_BYTES - headLength));
            headLength += Math.min(chunk.length, SNIFF_BYTES - headLength);
          }
          yield chunk;
        }
      }
      await files.stage(storageName, observe(source));
      const contentType =
        size === 0
          ? 'application/octet-stream'
          : await sniffContentType(files.stagedPath(storageName), Buffer.concat(head), size);
      return { storageName, size, contentType };
    },
    publish: (names: string[]) => files.publish(names),
    discard: (names: string[]) => files.discard(names),
    sweep: (known: KnownNames) => files.sweep(known),
    /** Opens a published file to be sent (routes/reply-with-file.ts); undefined when it is not there. */
    async open(storageName: string): Promise<FileHandle | undefined> {
      if (!/^[0-9a-f]{32}$/.test(storageName)) return undefined; // only names we made
      return open(files.finalPath(storageName), 'r').catch(() => undefined);
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;
