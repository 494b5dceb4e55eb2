import fc from 'fast-check';

/**
 * Building blocks of hostile requests: strings that break naive code, JSON values of the wrong type
 * and shape, and encoders that can write what JSON.stringify never would (duplicate keys,
 * `__proto__` keys, invalid UTF-8, nesting deeper than any parser's recursion).
 */

/** Raw bytes spliced into a body as is (invalid UTF-8, deep nesting). */
export class Raw {
  constructor(readonly bytes: Buffer) {}
}

/** A value only known when the request is made: a live token of the test user, its e-mail… */
export class Live {
  constructor(readonly kind: string) {}
}

/** A JSON-ish value; `Raw` inside is written verbatim, objects as entry lists (keys may repeat). */
export type Value = null | boolean | number | string | Raw | Live | Value[] | { entries: [string, Value][] };

export type Resolve = (live: Live) => string;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const combining = fc.integer({ min: 1, max: 200 }).map((n) => 'e' + '\u0301\u0336\u0489'.repeat(n));

/** Strings that break naive code: empty, huge, NUL, lone surrogates, RTL, combining marks, injection. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom('', ' ', '\t\n', 'null', 'undefined', 'true', '0', '-1', '1e400', 'NaN'), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`),
    weight: 3,
  },
  { arbitrary: fc.tuple(fc.string({ maxLength: 8 }), loneSurrogate).map(([a, s]) => `${a}${s}`), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '\u202Eevil\u202C',
      '\u200F\u05E9\u05DC\u05D5\u05DD',
      '\uFEFF',
      '\u2028\u2029',
      '\uFFFF\uFFFE',
      'ß'.repeat(40),
      'İ',
      'ﬀ',
    ),
    weight: 2,
  },
  { arbitrary: combining, weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "' OR '1'='1",
      '"; DROP TABLE users; --',
      '<script>alert(1)</script>',
      '../../../../etc/passwd',
      '..\\..\\windows',
      '%00',
      '%zz',
      '${jndi:ldap://x}',
      '{{7*7}}',
      '__proto__',
      'constructor',
      '\r\nX-Injected: 1',
      'a@b',
      '@',
      'a@b.c',
      'USER@EXAMPLE.COM ',
      'x@[127.0.0.1]',
      '"quoted"@example.com',
      'o\u0308@example.com',
    ),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(256, 5_000, 70_000).map((n) => 'x'.repeat(n)), weight: 2 },
  { arbitrary: fc.constantFrom(300, 5_000).map((n) => `${'a'.repeat(n)}@example.com`), weight: 1 },
);

/** Nesting deeper than recursive code survives: `[[[[...]]]]` or `{"a":{"a":...}}`. */
const deepNesting = fc
  .tuple(fc.constantFrom(64, 1_000, 20_000, 100_000), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new Raw(
        Buffer.from(arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
      ),
  );

/** Bytes that are not UTF-8 at all. */
const invalidUtf8 = fc
  .constantFrom('ff', 'c080', 'c328', 'eda080', 'f4908080', 'fe')
  .map((hex) => new Raw(Buffer.concat([Buffer.from('"a'), Buffer.from(hex, 'hex'), Buffer.from('"')])));

/** Keys that poison naive object handling. */
export const hostileKey: fc.Arbitrary<string> = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  'a.b',
  '.',
  '..',
  'x'.repeat(300),
);

export const hostileValue: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: hostileString, weight: 8 },
    {
      arbitrary: fc.constantFrom<Value>(
        null,
        true,
        false,
        0,
        -1,
        1.5,
        1e308,
        -0,
        2 ** 53 + 1,
        Number('99999999999999999999') /* past 2^53 on purpose */,
      ),
      weight: 3,
    },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 2 },
    {
      arbitrary: fc
        .array(fc.tuple(fc.oneof(hostileKey, fc.string({ maxLength: 6 })), tie('value')), { maxLength: 4 })
        .map((entries) => ({ entries })),
      weight: 2,
    },
    { arbitrary: deepNesting, weight: 1 },
    { arbitrary: invalidUtf8, weight: 1 },
  ),
})).value;

/** Writes a value as JSON bytes, keeping repeated keys, `Raw` bytes and lone surrogates as given. */
export function encodeJson(value: Value, resolve: Resolve): Buffer {
  const parts: Buffer[] = [];
  const walk = (v: Value) => {
    if (v instanceof Raw) parts.push(v.bytes);
    else if (v instanceof Live) parts.push(Buffer.from(JSON.stringify(resolve(v))));
    else if (Array.isArray(v)) {
      parts.push(Buffer.from('['));
      v.forEach((item, i) => {
        if (i) parts.push(Buffer.from(','));
        walk(item);
      });
      parts.push(Buffer.from(']'));
    } else if (v !== null && typeof v === 'object') {
      parts.push(Buffer.from('{'));
      v.entries.forEach(([k, item], i) => {
        parts.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify(k)}:`));
        walk(item);
      });
      parts.push(Buffer.from('}'));
    } else parts.push(Buffer.from(JSON.stringify(v) ?? 'null'));
  };
  walk(value);
  return Buffer.concat(parts);
}

/** The text a form field would carry for a value: strings as they are, anything else as JSON. */
export function formText(value: Value, resolve: Resolve): Buffer {
  if (typeof value === 'string') return Buffer.from(value);
  if (value instanceof Raw) return value.bytes;
  if (value instanceof Live) return Buffer.from(resolve(value));
  return encodeJson(value, resolve);
}

/** Percent-encodes, or (sometimes) leaves bytes raw and broken, as a hostile client would. */
export function urlEncode(bytes: Buffer, broken: boolean): string {
  if (!broken) return encodeURIComponent(bytes.toString('utf8'));
  return bytes.toString('latin1').replace(/[&=]/g, (c) => (c === '&' ? '%26' : '%3D')) + '%';
}

/** Strings safe to put in an HTTP header (visible ASCII, space, tab, obs-text), of any content. */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  fc.constantFrom(
    'x'.repeat(8000),
    '\t',
    '',
    'Bearer',
    'Token',
    'Basic dXNlcjpwYXNz',
    'Bearer  ',
    'bearer a.b.c',
    'Token a b',
    'Bearer eyJhbGciOiJub25lIn0.e30.',
  ),
);
