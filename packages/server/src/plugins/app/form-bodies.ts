import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.multipartStream) return;
    if (request.isMultipart()) {
      request.body = nestDottedNames(await collectFields(request));
    } else if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      request.body = nestDottedNames(lastValues(request.body as Record<string, unknown>));
    }
  });
});

async function collectFields(request: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = Object.create(null);
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      part.file.resume(); // no call but the news upload takes files: drain and ignore
      continue;
    }
    if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  return fields;
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
