import fc from 'fast-check';
import {
  Live,
  Raw,
  encodeJson,
  formText,
  headerText,
  hostileKey,
  hostileString,
  hostileValue,
  urlEncode,
  type Resolve,
  type Value,
} from './hostile-values.js';

/**
 * Arbitrary requests for one endpoint of the API (docs/api.md, "Calls"): every body format the server
 * accepts (and some it must refuse), with values that are missing, of the wrong type, hostile, or
 * plausible (so that one bad field is often the only thing wrong), and Authorization headers from
 * garbage to a live token of the right or the wrong kind.
 */
export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: fc.Arbitrary<string>;
  auth?: 'Bearer' | 'Token';
  /** Body fields of the contract; dotted names are nested objects in JSON. */
  fields: string[];
  /** The news upload: multipart `files` parts. */
  files?: boolean;
}

export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'garbage'; text: string }
  | { kind: 'live'; scheme: string; token: 'access' | 'refresh'; tail: string };

export interface Part {
  name: string;
  value: Value;
  filename?: string;
  contentType?: string;
}

export type BodySpec =
  | { kind: 'none'; contentType?: string }
  | { kind: 'json'; contentType: string; value: Value }
  | { kind: 'bytes'; contentType?: string; bytes: Buffer }
  | { kind: 'form'; entries: [string, Value][]; broken: boolean }
  | {
      kind: 'multipart';
      parts: Part[];
      framing: 'ok' | 'unterminated' | 'no-boundary' | 'other-boundary' | 'lf' | 'no-disposition';
    };

export interface RequestSpec {
  url: string;
  auth: AuthSpec;
  headers: [string, string][];
  body: BodySpec;
}

/** Values a real client would send for a field; resolved to the test user's data at call time. */
const plausibleFor = (field: string): fc.Arbitrary<Value> => {
  const leaf = field.split('.').at(-1)!;
  const kinds: Record<string, string[]> = {
    email: ['email', 'email-upper', 'new-email'],
    new_email: ['new-email', 'email'],
    mfa_token: ['access', 'refresh'],
    username: ['email'],
    password: ['password', 'strong-password'],
    old_password: ['password'],
    password1: ['strong-password'],
    password2: ['strong-password'],
    new_password: ['strong-password'],
    confirm: ['strong-password'],
    refresh: ['refresh', 'access'],
    token: ['refresh', 'reset-like'],
    reset_new_password_path: ['path'],
  };
  const live = kinds[leaf];
  if (live) return fc.constantFrom(...live).map((k) => new Live(k));
  return fc.constantFrom('Hello', 'Grüße aus Köln', 'a', '+49 221 12345', 'https://example.com/');
};

const fieldsArb = (fields: string[]): fc.Arbitrary<[string, Value][]> =>
  fc
    .tuple(
      fc.tuple(
        ...fields.map((f) =>
          fc.oneof(
            { weight: 1, arbitrary: fc.constant(undefined) },
            { weight: 3, arbitrary: hostileValue },
            { weight: 4, arbitrary: plausibleFor(f) },
          ),
        ),
      ),
      fc.array(fc.tuple(fc.oneof(hostileKey, fc.constantFrom(...fields, 'extra', 'files')), hostileValue), {
        maxLength: 2,
      }),
    )
    .map(([values, extra]) => [
      ...fields.flatMap((f, i) => (values[i] === undefined ? [] : [[f, values[i]] as [string, Value]])),
      ...extra,
    ]);

/** Dotted names become nested objects, as the JSON form of the profile call has them. */
function nest(entries: [string, Value][]): Value {
  const out: [string, Value][] = [];
  for (const [name, value] of entries) {
    const [head, leaf] = name.split('.');
    if (!leaf || !head) {
      out.push([name, value]);
      continue;
    }
    let group = out.find(([k, v]) => k === head && v !== null && typeof v === 'object' && 'entries' in v)?.[1] as
      { entries: [string, Value][] } | undefined;
    if (!group) out.push([head, (group = { entries: [] })]);
    group.entries.push([leaf, value]);
  }
  return { entries: out };
}

const jsonTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/json;;',
);
const otherTypes = fc.constantFrom(
  'text/plain',
  'application/xml',
  'text/html',
  'application/octet-stream',
  '*/*',
  'multipart/form-data',
  'multipart/mixed; boundary=x',
  'application/x-www-form-urlencoded; charset=latin1',
  'application/x-www-form-urlencoded',
  'application/json',
  'image/png',
  'x',
  ';',
);
const invalidJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '{"email": ',
    '{"a":1,}',
    "{'a':1}",
    'nul',
    'tru',
    '[1,2',
    '{"a":"\\x41"}',
    '{"a":"\\ud800"}',
    '\uFEFF{}',
    '{"a":1}/*c*/',
    '{"a":01}',
    '"unterminated',
    '{"__proto__":{"admin":true}}',
    '1 2',
  ),
  fc.string({ unit: 'binary', maxLength: 50 }),
);
const fileBytes = fc.oneof(
  fc
    .constantFrom(
      '',
      '<html><script>alert(document.cookie)</script></html>',
      '%PDF-1.4\n%%EOF\n',
      '\x89PNG\r\n\x1a\n',
      'GIF89a',
      'MZ\x90\x00',
    )
    .map((s) => Buffer.from(s, 'latin1')),
  fc.uint8Array({ maxLength: 2048 }).map((a) => Buffer.from(a)),
);

const bodyArb = (ep: Endpoint): fc.Arbitrary<BodySpec> => {
  const fields = fieldsArb(ep.fields);
  const partsArb: fc.Arbitrary<Part[]> = fc
    .tuple(
      fields,
      ep.files
        ? fc.array(
            fc.record({
              name: fc.constantFrom('files', 'files', 'files', 'file', 'title', ''),
              value: fileBytes.map((b) => new Raw(b) as Value),
              filename: fc.oneof(
                fc.constantFrom(
                  'a.txt',
                  'photo.png',
                  '../../etc/passwd',
                  '..\\..\\app.db',
                  '/etc/shadow',
                  '',
                  '.',
                  'a\u0000.pdf',
                  '\u202Egpj.exe',
                  'x'.repeat(1000),
                  'a"b.txt',
                  'CON',
                ),
                hostileString,
              ),
              contentType: fc.option(
                fc.constantFrom('text/html', 'application/pdf', 'image/png', '', 'x', 'text/plain; charset=utf-7'),
                { nil: undefined },
              ),
            }),
            { maxLength: 12 },
          )
        : fc.array(
            fc.record({
              name: fc.constantFrom(...ep.fields, 'files'),
              value: fileBytes.map((b) => new Raw(b) as Value),
              filename: fc.constantFrom('a.txt', '../x'),
            }),
            { maxLength: 2 },
          ),
    )
    .map(([entries, files]) => [...entries.map(([name, value]) => ({ name, value })), ...files]);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant('json' as const), contentType: jsonTypes, value: fields.map(nest) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('json' as const), contentType: jsonTypes, value: hostileValue }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('bytes' as const),
        contentType: jsonTypes,
        bytes: invalidJson.map((s) => Buffer.from(s)),
      }),
    },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('form' as const), entries: fields, broken: fc.boolean() }) },
    {
      weight: ep.files ? 10 : 4,
      arbitrary: fc.record({
        kind: fc.constant('multipart' as const),
        parts: partsArb,
        framing: fc.constantFrom(
          'ok',
          'ok',
          'ok',
          'unterminated',
          'no-boundary',
          'other-boundary',
          'lf',
          'no-disposition',
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('bytes' as const),
        contentType: fc.option(otherTypes, { nil: undefined }),
        bytes: fc.oneof(invalidJson, hostileString).map((s) => Buffer.from(s)),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('none' as const),
        contentType: fc.option(fc.oneof(jsonTypes, otherTypes), { nil: undefined }),
      }),
    },
  );
};

const authArb = (ep: Endpoint): fc.Arbitrary<AuthSpec> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: headerText.map((text) => ({ kind: 'garbage' as const, text })) },
    {
      weight: ep.auth ? 8 : 2,
      arbitrary: fc.record({
        kind: fc.constant('live' as const),
        scheme: fc.oneof(
          { weight: 6, arbitrary: fc.constant(ep.auth ?? 'Bearer') },
          { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Token', 'bearer', 'JWT', 'Basic', '') },
        ),
        token: fc.oneof(
          { weight: 5, arbitrary: fc.constant(ep.auth === 'Token' ? ('refresh' as const) : ('access' as const)) },
          { weight: 1, arbitrary: fc.constantFrom('access' as const, 'refresh' as const) },
        ),
        tail: fc.oneof(
          { weight: 6, arbitrary: fc.constant('') },
          { weight: 1, arbitrary: fc.constantFrom(' ', 'x', ' x', '.', '\t', '==') },
        ),
      }),
    },
  );

const headerNames = fc.constantFrom(
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'accept',
  'accept-encoding',
  'accept-language',
  'content-encoding',
  'range',
  'if-none-match',
  'if-range',
  'if-modified-since',
  'origin',
  'cookie',
  'referer',
  'x-http-method-override',
  'x-requested-with',
  'user-agent',
);

export const requestArb = (ep: Endpoint): fc.Arbitrary<RequestSpec> =>
  fc.record({
    url: ep.url,
    auth: authArb(ep),
    headers: fc.array(
      fc.tuple(
        headerNames,
        fc.oneof(
          headerText,
          fc.constantFrom(
            'gzip',
            'bytes=0-0',
            'bytes=-1',
            'bytes=9-1',
            'bytes=0-0,0-0,0-0,0-0,0-0',
            'bytes=99999999999999999999-',
            '*',
            'W/"x"',
            'null',
          ),
        ),
      ),
      { maxLength: 3 },
    ),
    body:
      ep.method === 'GET'
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
            { weight: 1, arbitrary: bodyArb(ep) },
          )
        : bodyArb(ep),
  });

/** The bytes and headers of a body spec. */
export function encodeBody(body: BodySpec, resolve: Resolve): { payload?: Buffer; contentType?: string } {
  switch (body.kind) {
    case 'none':
      return body.contentType === undefined ? {} : { contentType: body.contentType };
    case 'json':
      return { payload: encodeJson(body.value, resolve), contentType: body.contentType };
    case 'bytes':
      return { payload: body.bytes, ...(body.contentType === undefined ? {} : { contentType: body.contentType }) };
    case 'form':
      return {
        payload: Buffer.from(
          body.entries
            .map(([k, v]) => `${urlEncode(Buffer.from(k), false)}=${urlEncode(formText(v, resolve), body.broken)}`)
            .join('&'),
          'latin1',
        ),
        contentType: 'application/x-www-form-urlencoded',
      };
    case 'multipart':
      return encodeMultipart(body, resolve);
  }
}

function encodeMultipart(
  body: Extract<BodySpec, { kind: 'multipart' }>,
  resolve: Resolve,
): { payload: Buffer; contentType: string } {
  const boundary = '----hostile' + 'b'.repeat(8);
  const eol = body.framing === 'lf' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  for (const part of body.parts) {
    const disposition =
      body.framing === 'no-disposition'
        ? ''
        : `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}${eol}`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}${eol}`;
    chunks.push(
      Buffer.from(`--${boundary}${eol}${disposition}${type}${eol}`),
      formText(part.value, resolve),
      Buffer.from(eol),
    );
  }
  if (body.framing !== 'unterminated') chunks.push(Buffer.from(`--${boundary}--${eol}`));
  const contentType =
    body.framing === 'no-boundary'
      ? 'multipart/form-data'
      : `multipart/form-data; boundary=${body.framing === 'other-boundary' ? 'elsewhere' : boundary}`;
  return { payload: Buffer.concat(chunks), contentType };
}
