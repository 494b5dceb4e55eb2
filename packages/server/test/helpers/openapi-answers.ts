import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { decodedBody } from './decoded-body.js';

/**
 * Checks a real answer against the OpenAPI description the app serves (`app.swagger()`, the document of
 * /api/openapi.json), so the document cannot drift from what the API answers:
 * - the request's path is matched to the document's path templates; a path the document does not have
 *   (the web app's pages, unknown paths) is not an API call and is left alone;
 * - a method the path declares: the status must be declared for that operation (HEAD of a path with
 *   only GET: Fastify's automatic HEAD, checked as the GET without its body); a method it does not
 *   declare: a 405 whose `Allow` names exactly the declared methods, or a 404 (an id no route takes);
 * - the answer's media type must be one the response declares (none: no body), and a JSON body must
 *   validate against the declared schema, its objects closed (a field the document does not name is
 *   drift too);
 * - every header the response declares `required` must be there, and the headers that matter
 *   (HEADERS_THAT_MATTER) may only be sent where the response declares them; a header declared with
 *   its values (`enum`: a 401's challenge, `Accept-Ranges`) has one of them.
 */

interface Header {
  required?: boolean;
  schema?: { enum?: unknown[] };
}
interface Response {
  $ref?: string;
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: object }>;
}
interface Operation {
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Response> };
}

const HEADERS_THAT_MATTER = [
  'allow',
  'link',
  'retry-after',
  'www-authenticate',
  'etag',
  'content-range',
  'accept-ranges',
  'content-disposition',
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `/api/v1/localnews/{id}/` → a pattern matching one segment for each parameter. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

interface Matcher {
  paths: { template: string; pattern: RegExp }[];
}
const matchers = new WeakMap<object, Matcher>();

/** Validators by schema text: every app of a run serves the same schemas, compiled once. */
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

function validator(schema: object): ValidateFunction {
  const text = JSON.stringify(closeObjects(schema));
  let validate = validators.get(text);
  if (!validate) validators.set(text, (validate = ajv.compile(JSON.parse(text) as object)));
  return validate;
}

/** Objects with named properties and no word on others get `additionalProperties: false`. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closeObjects(value)]));
  if ('properties' in copy && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

function resolve(document: Document, response: Response): Response {
  if (!response.$ref) return response;
  const name = response.$ref.replace('#/components/responses/', '');
  const target = document.components?.responses?.[name];
  if (!target) throw new Error(`unresolved ${response.$ref}`);
  return target;
}

const mediaTypeMatches = (declared: string, actual: string) => {
  if (declared === '*/*' || declared === actual) return true;
  return declared.endsWith('/*') && actual.startsWith(declared.slice(0, -1));
};

/** Problems of one answer with the document, or [] when the document describes it. */
export function openapiProblems(document: Document, method: string, url: string, res: LightMyRequestResponse) {
  let matcher = matchers.get(document);
  if (!matcher) {
    // A path without parameters first, as the router takes it (`/sessions/revoke-others/` before `/sessions/{id}/`).
    const paths = Object.keys(document.paths)
      .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
      .map((template) => ({ template, pattern: templatePattern(template) }));
    matchers.set(document, (matcher = { paths }));
  }
  const pathname = new URL(url, 'http://x').pathname;
  const found = matcher.paths.find((p) => p.pattern.test(pathname));
  if (!found) return [];
  const pathItem = document.paths[found.template]!;
  const declared = METHODS.filter((m) => pathItem[m]);
  const lower = method.toLowerCase();
  const where = `${method} ${found.template} → ${res.statusCode}`;
  const status = String(res.statusCode);

  let operation = pathItem[lower];
  let headOfGet = false;
  if (!operation && lower === 'head' && pathItem.get) {
    operation = pathItem.get;
    headOfGet = true;
  }
  const problems: string[] = [];
  let response: Response | undefined;
  if (operation) {
    const raw = operation.responses[status] ?? operation.responses.default;
    if (!raw) return [`${where}: status ${status} is not declared`];
    response = resolve(document, raw);
  } else {
    // A method no call of this path takes: 405 with Allow, or 404 for a URL no route of it takes.
    if (res.statusCode !== 405 && res.statusCode !== 404)
      return [`${where}: ${method} is not declared for this path, yet it did not answer 405 or 404`];
    const raw = declared.map((m) => pathItem[m]!.responses[status]).find(Boolean);
    if (!raw) return [`${where}: status ${status} is not declared by any operation of this path`];
    response = resolve(document, raw);
    if (res.statusCode === 405) {
      const allowed = new Set(declared.map((m) => m.toUpperCase()));
      if (allowed.has('GET')) allowed.add('HEAD'); // Fastify's automatic HEAD of a GET
      const sent = String(res.headers.allow ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean);
      if ([...allowed].sort().join(', ') !== [...sent].sort().join(', '))
        problems.push(`${where}: Allow "${sent.join(', ')}", the document declares ${[...allowed].sort().join(', ')}`);
    }
  }

  // Headers: the required ones are there, and the ones that matter only where declared.
  const declaredHeaders = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, header]) => [name.toLowerCase(), header]),
  );
  for (const [name, header] of Object.entries(declaredHeaders))
    if (header.required && res.headers[name] === undefined) problems.push(`${where}: required header ${name} missing`);
  for (const [name, header] of Object.entries(declaredHeaders)) {
    const sent = res.headers[name];
    const values = header.schema?.enum;
    if (sent !== undefined && values && !values.includes(String(sent)))
      problems.push(`${where}: header ${name} "${String(sent)}", the document declares ${values.join(' or ')}`);
  }
  for (const name of HEADERS_THAT_MATTER)
    if (res.headers[name] !== undefined && !declaredHeaders[name])
      problems.push(`${where}: header ${name} sent but not declared`);

  // Media type and body.
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const content = response.content ?? {};
  const types = Object.keys(content);
  const bodyless = lower === 'head' || headOfGet;
  if (types.length === 0) {
    if (res.rawPayload.length > 0) problems.push(`${where}: a body where the document declares none`);
    return problems;
  }
  if (bodyless && !type) return problems;
  const media = types.find((t) => mediaTypeMatches(t, type));
  if (!media) return [...problems, `${where}: content type "${type}", the document declares ${types.join(', ')}`];
  if (bodyless || !/^application\/(.+\+)?json$/.test(type)) return problems;
  const schema = content[media]!.schema;
  if (!schema) return problems;
  let body: unknown;
  try {
    body = JSON.parse(decodedBody(res).toString('utf8'));
  } catch {
    return [...problems, `${where}: the body is not JSON`];
  }
  const validate = validator(schema);
  if (!validate(body)) {
    const errors = ajv.errorsText(validate.errors, { separator: '; ' });
    problems.push(
      `${where}: the body does not match the declared schema (${errors}): ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
  return problems;
}

/** Answers that did not match the document, whichever test made them (the setup file fails the test). */
export class OpenApiMismatch extends Error {}

/**
 * Makes `app.inject` check each answer against the app's own document: a mismatch rejects the inject,
 * so the test that sent the request fails, naming the request and what the document says.
 */
export function checkAnswersAgainstOpenApi<T extends FastifyInstance>(app: T): T {
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  const checked = async (options: InjectOptions) => {
    const res = await inject(options);
    const document = app.swagger() as unknown as Document;
    const method = String(options.method ?? 'GET').toUpperCase();
    const url = typeof options.url === 'string' ? options.url : String(options.path ?? '/');
    const problems = openapiProblems(document, method, url, res);
    if (problems.length > 0)
      throw new OpenApiMismatch(`The answer differs from /api/openapi.json:\n${problems.join('\n')}`);
    return res;
  };
  Object.defineProperty(app, 'inject', { value: checked, configurable: true, writable: true });
  return app;
}
