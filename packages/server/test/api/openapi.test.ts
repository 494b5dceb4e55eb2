import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';

/** `/api/v1/localnews/files/:id` → `/api/v1/localnews/files/{id}`, as OpenAPI writes it. */
const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

interface Doc {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
        responses: Record<string, unknown>;
      }
    >
  >;
}

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
    expect(
      Object.keys(doc.paths).filter((p) => !p.startsWith('/api/') && !p.startsWith('/download_pdf_by_id/')),
    ).toEqual([]);
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
});
