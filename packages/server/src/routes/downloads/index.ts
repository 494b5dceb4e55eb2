import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths, errorBody } from '@hello/contract';
import { httpErrors } from '../../http-errors.js';
import { attachmentDisposition } from '../../storage/file-names.js';
import { parseId } from '../parse-id.js';
import { replyWithFile } from '../reply-with-file.js';
import { decideRange, noneMatch } from './conditional.js';

/** The PDFs never change for an id, and the ETag lets a browser revalidate cheaply after this. */
const CACHE_CONTROL = 'public, max-age=3600';

const schema = {
  summary: 'Download a PDF (ETag/304, single Range/206, HEAD)',
  tags: ['pdfs'],
  params: { type: 'object', properties: { id: { type: 'string', description: 'PDF id (digits).' } } },
  response: {
    200: { description: 'The PDF, as an attachment.', type: 'string', format: 'binary' },
    206: { description: 'The requested byte range.', type: 'string', format: 'binary' },
    304: { description: 'Not modified (If-None-Match matched).', type: 'null' },
    404: errorBody,
    416: errorBody,
  },
};

/** GET /download_pdf_by_id/{id}: anonymous; a large PDF is streamed from disk, never read whole into memory. */
export default async function downloadsRoutes(app: FastifyInstance) {
  // HEAD is its own method here (not Fastify's automatic one, which would zero Content-Length).
  app.route({ method: ['GET', 'HEAD'], url: apiPaths.downloadPdf, schema, compress: false, handler: downloadPdf });

  async function downloadPdf(request: FastifyRequest, reply: FastifyReply) {
    const id = parseId((request.params as { id?: string }).id);
    const pdf = id === undefined ? undefined : await app.pdfStore.find(id);
    if (!pdf) throw httpErrors.notFound();

    reply.headers({ etag: pdf.etag, 'cache-control': CACHE_CONTROL, 'accept-ranges': 'bytes' });
    const { headers } = request;
    if (noneMatch(headers['if-none-match'], pdf.etag)) return reply.code(304).send();

    const ifRange = headers['if-range'];
    const range = decideRange(headers.range, Array.isArray(ifRange) ? ifRange[0] : ifRange, pdf.etag, pdf.size);
    if (range.kind === 'unsatisfiable') {
      return reply
        .code(416)
        .header('content-range', `bytes */${pdf.size}`)
        .send({ detail: 'Requested range not satisfiable.' });
    }
    const { start, end } = range.kind === 'partial' ? range : { start: 0, end: pdf.size - 1 };
    // The path comes from the row's server-chosen name, never from the request. Read (or opened)
    // before any file header is set, so a missing file still answers a clean 404.
    const body =
      request.method === 'HEAD'
        ? undefined
        : await app.pdfStore.read(pdf, start, end).catch((error: unknown) => {
            request.log.error({ err: error, id: pdf.id }, 'PDF row without its file');
            return null;
          });
    if (body === null) throw httpErrors.notFound();
    if (range.kind === 'partial') reply.code(206).header('content-range', `bytes ${start}-${end}/${pdf.size}`);
    reply.headers({
      'content-type': 'application/pdf',
      'content-length': String(end - start + 1),
      'content-disposition': attachmentDisposition(pdf.fileName),
    });
    if (body === undefined || Buffer.isBuffer(body)) return reply.send(body); // no body for HEAD
    return replyWithFile(request, reply, body, start, end); // a large PDF, from its file
  }
}
