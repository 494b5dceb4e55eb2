import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { openapiProblems } from '../helpers/openapi-answers.js';

/** `/api/v1/localnews/files/:id` → `/api/v1/localnews/files/{id}`, as OpenAPI writes it. */
const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

interface Response {
  $ref?: string;
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: { type?: string; properties?: Record<string, unknown> } }>;
}
interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, Response>;
}
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response>; securitySchemes: Record<string, unknown> };
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ call: `${method.toUpperCase()} ${path}`, operation })),
  );

describe.each(dialects)('GET /api/openapi.json (%s)', (dialect) => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json<Doc>();
  });
  afterAll(() => t.close());

  it('is an OpenAPI 3 document listing every path of the contract', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const missing = Object.values(apiPaths)
      .map(openapiPath)
      .filter((path) => !doc.paths[path]);
    expect(missing).toEqual([]);
  });

  it('leaves the web app pages out', () => {
    const calls = /^\/(api\/|download_pdf_by_id\/|healthz$|readyz$|metrics$)/;
    expect(Object.keys(doc.paths).filter((p) => !calls.test(p))).toEqual([]);
  });

  it('documents the multipart upload body without validating it', () => {
    const create = doc.paths['/api/v1/localnews/new']!.post!;
    const multipart = create.requestBody!.content['multipart/form-data']!.schema;
    expect(multipart.properties).toMatchObject({
      files: { type: 'array', items: { type: 'string', format: 'binary' } },
    });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '413']));
  });

  it('describes the news list answer and the PDF download statuses', () => {
    expect(Object.keys(doc.paths['/api/v1/localnews/']!.get!.responses)).toEqual(
      expect.arrayContaining(['200', '401']),
    );
    const pdf = doc.paths['/download_pdf_by_id/{id}']!;
    expect(Object.keys(pdf.get!.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416']));
    expect(pdf.head).toBeDefined();
  });

  it('names every call by a unique camelCase operationId', () => {
    const ids = operations(doc).map(({ operation }) => operation.operationId);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(String(id)))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/download_pdf_by_id/{id}']!.head!.operationId).toBe('getPdfHeaders');
  });

  it('declares the security of every call: Bearer, Token (the refresh token) or none', () => {
    const security = Object.fromEntries(operations(doc).map(({ call, operation }) => [call, operation.security]));
    expect(Object.entries(security).filter(([, s]) => s === undefined)).toEqual([]);
    const bearer = [{ bearer: [] }];
    const token = [{ token: [] }];
    expect(security).toMatchObject({
      'GET /api/v1/localnews/': bearer,
      'GET /api/v1/localnews/{id}/': bearer,
      'PATCH /api/v1/localnews/{id}/': bearer,
      'DELETE /api/v1/localnews/{id}/': bearer,
      'PUT /api/v1/users/changepassword/': bearer,
      'GET /api/v1/user/profile/': bearer,
      'POST /api/v1/user/profile/': bearer,
      'POST /api/v1/localnews/new': token,
      'POST /api/v1/rest-auth/logout/': token,
      'POST /api/v1/token/': [],
      'GET /download_pdf_by_id/{id}': [],
      'GET /api/v1/localnews/files/{id}': [],
    });
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['bearer', 'token']));
  });

  it('gives file answers their own media types and headers, never JSON', () => {
    const pdf = doc.paths['/download_pdf_by_id/{id}']!.get!.responses;
    expect(Object.keys(pdf['200']!.content!)).toEqual(['application/pdf']);
    expect(Object.keys(pdf['206']!.content!)).toEqual(['application/pdf']);
    expect(pdf['200']!.headers).toMatchObject({ ETag: { required: true }, 'Accept-Ranges': { required: true } });
    expect(pdf['206']!.headers).toMatchObject({ 'Content-Range': { required: true } });
    expect(pdf['416']!.headers).toMatchObject({ 'Content-Range': { required: true } });
    const file = doc.paths['/api/v1/localnews/files/{id}']!.get!.responses['200']!;
    expect(Object.keys(file.content!)).toEqual(['*/*']);
    expect(file.headers).toMatchObject({ 'Content-Disposition': { required: true } });
    expect(doc.paths['/api/v1/localnews/']!.get!.responses['200']!.headers).toMatchObject({
      Link: { required: false },
    });
  });

  it('declares WWW-Authenticate on every 401, Retry-After on every 429 and 503, and 405 with Allow everywhere', () => {
    for (const { call, operation } of operations(doc)) {
      const { responses } = operation;
      if (responses['401']) expect(responses['401'].headers, call).toHaveProperty('WWW-Authenticate.required', true);
      for (const status of ['429', '503'])
        if (responses[status]) expect(responses[status].headers, call).toHaveProperty('Retry-After.required', true);
      expect(responses['405'], call).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
    }
    expect(doc.components.responses.MethodNotAllowed!.headers).toHaveProperty('Allow.required', true);
    // Each 401 declares its own call's challenge (docs/api.md, "Errors").
    const challenge = (path: string, method: 'get' | 'post') =>
      (doc.paths[path]![method]!.responses['401']!.headers!['WWW-Authenticate'] as { schema?: object }).schema;
    expect(challenge(apiPaths.localNewsNew, 'post')).toEqual({ type: 'string', enum: ['Token realm="api"'] });
    expect(challenge(apiPaths.logout, 'post')).toEqual({ type: 'string', enum: ['Token realm="api"'] });
    expect(challenge(apiPaths.localNews, 'get')).toEqual({ type: 'string', enum: ['Bearer realm="api"'] });
    expect(challenge(apiPaths.token, 'post')).toEqual({ type: 'string', enum: ['Bearer realm="api"'] });
  });

  it("fails an answer the document does not describe (the API suite's check of every answer)", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/localnews/' });
    expect(res.statusCode).toBe(401);
    expect(openapiProblems(doc, 'GET', '/api/v1/localnews/', res)).toEqual([]);
    // The same answer against a document whose 401 is another status, another body, or has no WWW-Authenticate.
    const broken = (change: (responses: Record<string, Response>) => void) => {
      const copy = structuredClone(doc);
      change(copy.paths['/api/v1/localnews/']!.get!.responses);
      return openapiProblems(copy, 'GET', '/api/v1/localnews/', res);
    };
    expect(broken((r) => delete r['401'])).toEqual([expect.stringContaining('status 401 is not declared')]);
    expect(broken((r) => (r['401']!.content!['application/json']!.schema = { type: 'array' }))).toEqual([
      expect.stringContaining('does not match the declared schema'),
    ]);
    expect(broken((r) => delete r['401']!.headers)).toEqual([
      expect.stringContaining('header www-authenticate sent but not declared'),
    ]);
    expect(
      broken((r) => ((r['401']!.headers!['WWW-Authenticate'] as { schema: object }).schema = { enum: ['Token'] })),
    ).toEqual([expect.stringContaining('header www-authenticate "Bearer realm="api"", the document declares Token')]);
    // A wrong method: 405 whose Allow must name exactly the path's declared methods.
    const wrong = await t.app.inject({ method: 'DELETE', url: '/api/v1/localnews/' });
    expect(wrong.statusCode).toBe(405);
    const extra = structuredClone(doc);
    extra.paths['/api/v1/localnews/']!.post = extra.paths['/api/v1/localnews/']!.get!;
    expect(openapiProblems(extra, 'DELETE', '/api/v1/localnews/', wrong)).toEqual([
      expect.stringContaining('Allow "GET, HEAD", the document declares GET, HEAD, POST'),
    ]);
  });

  it('serves the same document at /api/docs/json, which the reference page renders', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(doc);
  });
});
