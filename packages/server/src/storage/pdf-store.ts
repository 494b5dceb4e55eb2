import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database, PdfRow } from '../db/schema.js';
import {
  deletePdf,
  existingPdfIds,
  findPdf,
  insertPdf,
  knownPdfNames,
  listPdfs,
  nextPdfId,
} from '../repositories/pdfs.js';
import { cleanFileName } from './file-names.js';
import { StagedFileStore } from './staged-files.js';

/** What a download needs to know about a PDF; it never changes for an id, so it is cached. */
export interface PdfMeta {
  id: number;
  fileName: string;
  title: string;
  size: number;
  /** Strong ETag: the quoted SHA-256 of the bytes. */
  etag: string;
  /** Absolute path of the file: always built from the row's server-chosen name. */
  path: string;
}

export interface NewPdf {
  /** Taken when given (and refused when in use); otherwise the next free id. */
  id?: number;
  fileName: string;
  title: string;
}

export interface DemoSource {
  id: number;
  fileName: string;
  title: string;
  bytes: Uint8Array;
}

/** PDFs up to this size are kept in memory after their first download: no file to open per request. */
const KEEP_BYTES_UP_TO = 256 * 1024;
/** What all kept PDFs may hold together; larger ones, and any beyond this, are streamed from disk. */
const KEEP_BYTES_IN_ALL = 16 * 1024 * 1024;

/** The PDFs in DATA_DIR/pdfs, their rows, and a cache of their metadata (and of small ones' bytes). */
export function createPdfStore(db: Kysely<Database>, dataDir: string) {
  const files = new StagedFileStore(path.join(dataDir, 'pdfs'));
  const cache = new Map<number, PdfMeta>();
  const kept = new Map<number, Buffer>();
  let keptBytes = 0;
  const toMeta = (row: PdfRow): PdfMeta => ({
    id: row.id,
    fileName: row.file_name,
    title: row.title,
    size: row.size,
    etag: `"${row.sha256}"`,
    path: files.finalPath(row.storage_name),
  });

  /** Stores the bytes (streamed and hashed on the way), then the row, then publishes the file. */
  async function add(source: { bytes: Uint8Array } | { file: string }, pdf: NewPdf): Promise<PdfMeta | undefined> {
    const storageName = StagedFileStore.newName('.pdf');
    const hash = createHash('sha256');
    let size = 0;
    async function* observe(chunks: AsyncIterable<Uint8Array>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    }
    const input = 'bytes' in source ? [source.bytes] : createReadStream(source.file);
    await files.stage(storageName, observe(input as AsyncIterable<Uint8Array>));
    const row: PdfRow = {
      id: 0,
      file_name: cleanFileName(pdf.fileName, 'document.pdf'),
      title: pdf.title,
      storage_name: storageName,
      size,
      sha256: hash.digest('hex'),
      created_at: new Date().toISOString(),
    };
    // Without an id, take the next one; another writer may take it first, so try again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      row.id = pdf.id ?? (await nextPdfId(db));
      if (await insertPdf(db, row)) {
        try {
          await files.publish([storageName]);
        } catch (error) {
          await deletePdf(db, row.id);
          await files.discard([storageName]);
          throw error;
        }
        return toMeta(row);
      }
      if (pdf.id !== undefined) break;
    }
    await files.discard([storageName]);
    return undefined;
  }

  return {
    async find(id: number): Promise<PdfMeta | undefined> {
      const cached = cache.get(id);
      if (cached) return cached;
      const row = await findPdf(db, id);
      if (!row) return undefined; // unknown ids are not cached: the CLI may add them later
      const meta = toMeta(row);
      cache.set(id, meta);
      return meta;
    },
    /**
     * Bytes `start` to `end` (inclusive) of the PDF from memory for a small one, else its file, opened:
     * the caller sends the range (storage/send-file-range.ts) and closes it. Rejects when the file is
     * missing, before anything has been sent.
     */
    async read(pdf: PdfMeta, start: number, end: number): Promise<Buffer | FileHandle> {
      let bytes = kept.get(pdf.id);
      if (!bytes && pdf.size <= KEEP_BYTES_UP_TO && keptBytes + pdf.size <= KEEP_BYTES_IN_ALL) {
        bytes = await readFile(pdf.path);
        // A file that is not what its row says is served from disk as it is, never kept.
        if (bytes.length === pdf.size && !kept.has(pdf.id)) {
          kept.set(pdf.id, bytes);
          keptBytes += bytes.length;
        }
      }
      if (bytes) return bytes.subarray(start, end + 1);
      return open(pdf.path, 'r');
    },
    add,
    list: () => listPdfs(db),
    /**
     * Seeds the demo PDFs whose ids are free. `build` runs only when one is missing, so a warm start
     * costs one query; with several instances starting at once, the first row of an id wins.
     */
    async seed(ids: number[], build: () => Promise<DemoSource[]>): Promise<number[]> {
      const existing = await existingPdfIds(db, ids);
      if (ids.every((id) => existing.has(id))) return [];
      const added: number[] = [];
      for (const demo of await build()) {
        if (!ids.includes(demo.id) || existing.has(demo.id)) continue;
        const meta = await add({ bytes: demo.bytes }, { id: demo.id, fileName: demo.fileName, title: demo.title });
        if (meta) added.push(meta.id);
      }
      return added;
    },
    sweep: () => files.sweep((names) => knownPdfNames(db, names)),
  };
}

export type PdfStore = ReturnType<typeof createPdfStore>;
