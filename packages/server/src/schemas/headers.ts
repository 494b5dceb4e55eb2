/**
 * The response headers the OpenAPI description names (docs/api.md says when each is sent). Written as
 * @fastify/swagger reads a response schema's `headers`: each one's schema, with its description and
 * `x-required` (plugins/app/openapi.ts turns that into the header's `required`). They only document
 * the answers: no serializer reads them.
 */
const header = (description: string, required = true, schema: object = { type: 'string' }) => ({
  ...schema,
  description,
  'x-required': required,
});

export const responseHeaders = {
  link: header(
    '`</api/v1/localnews/?limit=N&before=CURSOR>; rel="next"` while older items exist; absent on the last page.',
    false,
  ),
  etag: header('The quoted SHA-256 of the file.'),
  acceptRanges: header('`bytes`: one `Range` is answered with 206.', true, { type: 'string', enum: ['bytes'] }),
  contentRange: header('`bytes START-END/SIZE`.'),
  unsatisfiedRange: header('`bytes */SIZE`.'),
  contentDisposition: header('`attachment; filename="…"; filename*=UTF-8\'\'…`.'),
  retryAfter: header('Seconds to wait before trying again.', true, { type: 'integer', minimum: 0 }),
  allow: header('The methods this path takes, e.g. `GET, HEAD`.'),
};
