import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import formBodies from './form-bodies.js';

/**
 * The parsers of request bodies: JSON (an empty one is `{}`), url-encoded and multipart, with the
 * contract's limits (docs/api.md, "Requests and answers" and "Limits"). Registered only in the scope of
 * the calls that take a body (routes/index.ts): @fastify/multipart adds an onRequest and an onResponse
 * hook to every route of its scope, to delete files saved to disk (this server streams uploads and
 * saves none), and the reads served most (the news list, attachments, PDFs, pages) go without them.
 */
export default fp(
  async function requestBodies(app: FastifyInstance) {
    const { config } = app;
    await app.register(formbody, { bodyLimit: config.maxBodyBytes });
    await app.register(multipart, {
      // The upload calls' limits (routes/api/v1/localnews: news-form.ts). A call that takes no upload
      // bounds its multipart body as a whole by MAX_BODY_BYTES, file parts included (form-bodies.ts);
      // a field cut at fieldSize is over that limit too.
      limits: {
        fieldSize: config.maxBodyBytes,
        fields: 50,
        // 0 turns a limit off (docs/api.md, "Limits"); to busboy 0 would mean "none allowed".
        fileSize: config.maxUploadFileBytes || Infinity,
        files: config.maxUploadFiles || Infinity,
        parts: (config.maxUploadFiles || Infinity) + 50,
      },
    });
    await app.register(formBodies);
  },
  { name: 'request-bodies', dependencies: ['services'] },
);
