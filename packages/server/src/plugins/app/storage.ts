import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { knownUploadNames } from '../../repositories/news.js';
import { createPdfStore, type PdfStore } from '../../storage/pdf-store.js';
import { createUrlSigner, type UrlSigner } from '../../storage/signed-urls.js';
import { createUploadStore, type UploadStore } from '../../storage/uploads.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** News attachments in DATA_DIR/uploads. */
    uploads: UploadStore;
    /** PDFs in DATA_DIR/pdfs, with their metadata cached. */
    pdfStore: PdfStore;
    /** Signs and checks the expiring links to attachments. */
    urlSigner: UrlSigner;
  }
}

/** The demo PDFs every installation starts with (docs/api.md, "PDFs"). */
export const DEMO_PDF_IDS = [1, 2, 3];

/**
 * Files on disk. At start: remove what a crash left half-done (staged files of dead processes, files
 * with no row), then seed the demo PDFs on first start.
 */
export default fp(
  async function storage(app: FastifyInstance) {
    const { dataDir, secretKey } = app.config;
    const uploads = createUploadStore(dataDir);
    const pdfStore = createPdfStore(app.db, dataDir);

    for (const [what, result] of [
      ['uploads', await uploads.sweep((names) => knownUploadNames(app.db, names))],
      ['pdfs', await pdfStore.sweep()],
    ] as const) {
      if (result.removed + result.published > 0)
        app.log.warn({ ...result }, `cleaned up ${what} left by an interrupted run`);
    }
    // Imported only when needed: pdf-lib stays out of a warm start.
    const seeded = await pdfStore.seed(DEMO_PDF_IDS, async () =>
      (await import('../../pdfs/demo-pdfs.js')).buildDemoPdfs(),
    );
    if (seeded.length > 0) app.log.info({ ids: seeded }, 'seeded the demo PDFs');

    app.decorate('uploads', uploads);
    app.decorate('pdfStore', pdfStore);
    app.decorate('urlSigner', createUrlSigner(secretKey));
  },
  { name: 'storage', dependencies: ['services'] },
);
