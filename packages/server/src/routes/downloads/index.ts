import type { FileHandle } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '@hello/contract';
import { exposeHead } from '../../plugins/app/openapi.js';
import { httpErrors } from '../../http-errors.js';
import { errorAnswer, unavailable } from '../../schemas/errors.js';
import { responseHeaders } from '../../schemas/headers.js';
import { attachmentDisposition } from '../../storage/file-names.js';
import { parseId, withIdParams } from '../parse-id.js';
import { replyWithFile } from '../reply-with-file.js';
import { decideRange, noneMatch } from './conditional.js';

/** The PDFs never change for an id, and the ETag lets a browser revalidate cheaply after this. */
const CACHE_CONTROL = 'public, max-age=3600';

const binary = { type: 'string', format: 'binary' } as const;
const etag = { ETag: responseHeaders.etag };

/** The PDF download, GET and HEAD (each its own operation). */
const pdfDownload = {
  tags: ['pdfs'],
  security: [],
  params: { type: 'object', properties: { id: { type: 'string', description: 'PDF id (digits).' } } },
  response: {
    200: {
      description: 'The PDF, as an attachment.',
      content: { 'application/pdf': { schema: binary } },
      headers: {
        ...etag,
        'Accept-Ranges': responseHeaders.acceptRanges,
        'Content-Disposition': responseHeaders.contentDisposition,
      },
    },
    206: {
      description: 'The requested byte range (one `Range: bytes=…`).',
      content: { 'application/pdf': { schema: binary } },
      headers: {
        ...etag,
        'Accept-Ranges': responseHeaders.acceptRanges,
        'Content-Range': responseHeaders.contentRange,
        'Content-Disposition': responseHeaders.contentDisposition,
      },
    },
    304: {
      description: 'Not modified (`If-None-Match` names the ETag, or is `*`).',
      type: 'null',
      headers: { ...etag, 'Accept-Ranges': responseHeaders.acceptRanges },
    },
    404: errorAnswer('An unknown or malformed id'),
    416: {
      ...errorAnswer('Requested range not satisfiable'),
      headers: {
        ...etag,
        'Accept-Ranges': responseHeaders.acceptRanges,
        'Content-Range': responseHeaders.unsatisfiedRange,
      },
    },
    503: unavailable,
  },
};

const getSchema = {
  ...pdfDownload,
  summary: 'Download a PDF (ETag/304, one Range/206)',
  operationId: 'downloadPdf',
};
const headSchema = { ...pdfDownload, summary: "A PDF's headers, without its bytes", operationId: 'getPdfHeaders' };

/** GET /download_pdf_by_id/{id}: anonymous; a large PDF is streamed from disk, never read whole into memory. */
export default async function downloadsRoutes(app: FastifyInstance) {
  // HEAD is its own route here (not Fastify's automatic one, which would zero Content-Length), and its
  // own operation in the OpenAPI description. Only ids match, so a malformed one is a 404 for any method.
  const path = withIdParams(apiPaths.downloadPdf);
  app.get(path, { schema: getSchema, compress: false, exposeHeadRoute: false }, downloadPdf);
  app.head(path, { schema: headSchema, compress: false, config: exposeHead }, downloadPdf);

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
    // before any file header is set, so a missing file still answers a clean 404; HEAD too, so it
    // answers as GET would (RFC 9110, 9.3.2).
    let body: Buffer | FileHandle;
    try {
      body = await app.pdfStore.read(pdf, start, end);
    } catch (error) {
      // Neither a 404 nor a 500 names a file: no ETag, no hour of caching.
      for (const name of ['etag', 'cache-control', 'accept-ranges']) reply.removeHeader(name);
      if (!isMissing(error)) throw error; // EACCES, EMFILE, EIO…: the error handler's 500, logged
      request.log.error({ err: error, id: pdf.id }, 'PDF row without its file');
      throw httpErrors.notFound();
    }
    if (range.kind === 'partial') reply.code(206).header('content-range', `bytes ${start}-${end}/${pdf.size}`);
    reply.headers({
      'content-type': 'application/pdf',
      'content-length': String(end - start + 1),
      'content-disposition': attachmentDisposition(pdf.fileName),
    });
    if (request.method === 'HEAD') {
      if (!Buffer.isBuffer(body)) await body.close();
      return reply.send();
    }
    if (Buffer.isBuffer(body)) return reply.send(body);
    return replyWithFile(request, reply, body, start, end); // a large PDF, from its file
  }
}

/** The file is not there (ENOTDIR: a folder of its path is not one); any other failure is the server's. */
const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException)?.code ?? '');
