import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpErrors } from '../../../../http-errors.js';
import { findNewsAuthor } from '../../../../repositories/news.js';
import { parseId } from '../../../parse-id.js';

export interface AuthorsItem {
  id: number;
  authorId: number;
}

const checked = new WeakMap<FastifyRequest, AuthorsItem>();

/**
 * An `onRequest` hook, after requireBearer, for a PATCH or DELETE of one item: 404 for no such item,
 * 403 for anyone but its author. It runs before a byte of the body is read or parsed, so a stranger
 * learns nothing from a body's errors and a stranger's upload never reaches the disk.
 */
export function requireAuthor(app: FastifyInstance) {
  return async function requireAuthor(request: FastifyRequest) {
    const id = parseId((request.params as { id?: string }).id);
    const authorId = id === undefined ? undefined : await findNewsAuthor(app.db, id);
    if (id === undefined || authorId === undefined) throw httpErrors.notFound();
    if (authorId !== request.principal!.userId) throw httpErrors.permissionDenied();
    checked.set(request, { id, authorId });
  };
}

/** The item requireAuthor let this request change. */
export function authorsItem(request: FastifyRequest): AuthorsItem {
  const item = checked.get(request);
  if (!item) throw new Error('requireAuthor did not run for this route');
  return item;
}
