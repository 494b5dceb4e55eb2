import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serverMessages } from '@hello/contract';
import { ApiError, httpErrors } from '../../http-errors.js';
import { guardedParts } from '../../multipart-parts.js';
import { asFieldInput } from '../../field-input.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler reads the multipart stream itself (file uploads); the body is not collected. */
    multipartStream?: boolean;
  }
}

/**
 * Every POST/PUT accepts JSON, url-encoded and multipart bodies alike, as Django REST Framework did.
 * Form bodies (url-encoded, and multipart without files) are made to look like JSON before validation:
 * repeated fields keep the last value, and dotted names (`user_profile.telephone`) become nested objects.
 */
export default fp(async function formBodies(app: FastifyInstance) {
  // An empty JSON body is an empty object, as in Django REST Framework (e.g. a logout sent with
  // `Content-Type: application/json` and no body); Fastify's own parser would refuse it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, done);
  });

  // JSON, forms and multipart are the bodies the API takes (docs/api.md); Fastify's own text/plain
  // parser would hand a route a string, answered 400 "Expected a dictionary" instead of 415.
  app.removeContentTypeParser('text/plain');

  const formBodies = async (request: FastifyRequest) => {
    if (request.routeOptions.config.multipartStream) return;
    if (request.isMultipart()) {
      request.body = nestDottedNames(await collectFields(request, app.config.maxBodyBytes));
    } else if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      request.body = nestDottedNames(lastValues(request.body as Record<string, unknown>));
    } else if (request.body === undefined && request.headers['content-type'] === undefined) {
      // No body at all (and so no Content-Type; one with a body and none is a 415): every field is
      // missing, as in Django REST Framework, rather than "Expected a dictionary".
      request.body = {};
    }
    // Only where the call reads a body (it has a body schema): a call that ignores its body (logout)
    // stores nothing from it, and its error schema has no room for field errors.
    const schema = request.routeOptions.schema?.body;
    if (!schema) return;
    asFieldInput(request.body, schema);
    const withNul = fieldsWithNul(request.body);
    if (withNul.length > 0)
      throw new ApiError(400, Object.fromEntries(withNul.map((field) => [field, [serverMessages.nullCharacters]])));
  };
  // Added to the routes that take a body only: a GET (the most frequent call) does not run it at all.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((method) => method === 'POST' || method === 'PUT' || method === 'PATCH')) return;
    route.preValidation = [formBodies, ...[route.preValidation ?? []].flat()];
  });
});

/**
 * Dotted names of the body's strings that hold a NUL character. PostgreSQL cannot store one in text
 * (it fails the query: a 500), SQLite can: refused up front, the same on both. Walked without
 * recursion, so a body nested 100,000 deep costs a loop, not the stack.
 */
export function fieldsWithNul(body: unknown): string[] {
  const found = new Set<string>();
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, name] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.add(name.split('.')[0] === '' ? 'non_field_errors' : name);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([child, name ? `${name}.${key}` : key]);
    }
  }
  return [...found].sort();
}

/** What a file part stands for among a body's fields: not text, for the validation to refuse. */
const FILE_PART = true;

/**
 * The fields of a multipart body to a call that takes no upload. MAX_BODY_BYTES bounds the body as a
 * whole, as it bounds a JSON or url-encoded one: the fields and any file parts (read only to be thrown
 * away, and no further than the limit) add up, and the first byte over it is a 413. A field the
 * parser cut at its fieldSize (MAX_BODY_BYTES, request-bodies.ts) is over the limit too, never used cut.
 */
async function collectFields(request: FastifyRequest, maxBytes: number): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = Object.create(null);
  let size = 0;
  const count = (bytes: number) => {
    size += bytes;
    if (size > maxBytes) throw httpErrors.payloadTooLarge();
  };
  try {
    for await (const part of guardedParts(request)) {
      if (part.type === 'file') {
        // No call but the news upload takes files. Leaving the loop early destroys the file's
        // stream, which ends the parsing; the rest of the body is discarded after the 413 (errors.ts).
        for await (const chunk of part.file as AsyncIterable<Buffer>) count(chunk.length);
        // Under a field the call reads, a file is no text: refused ("Not a valid string."), as
        // Django REST Framework refuses it, rather than dropped (an optional field would be blanked).
        fields[part.fieldname] = FILE_PART;
        continue;
      }
      if (part.valueTruncated) throw httpErrors.payloadTooLarge();
      const value = typeof part.value === 'string' ? part.value : (JSON.stringify(part.value) ?? '');
      count(Buffer.byteLength(part.fieldname) + Buffer.byteLength(value));
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (error) {
    throw malformedMultipart(error);
  }
  return fields;
}

/**
 * The parser's own errors (no boundary, a boundary that never comes, a body cut short) are the
 * client's fault: 400, not 500. Its limit errors carry a status and go on to the error handler (413).
 */
function malformedMultipart(error: unknown): unknown {
  const { statusCode, code } = (error ?? {}) as { statusCode?: number; code?: string };
  if (error instanceof ApiError || statusCode !== undefined || code?.startsWith('FST_')) return error;
  return new ApiError(400, { detail: serverMessages.malformedBody });
}

function lastValues(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(body ?? {})) out[key] = Array.isArray(value) ? value.at(-1) : value;
  return out;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function nestDottedNames(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const keys = name.split('.');
    if (keys.some((k) => FORBIDDEN_KEYS.has(k) || k === '')) continue;
    let node = out;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      node = (node[key] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return out;
}
