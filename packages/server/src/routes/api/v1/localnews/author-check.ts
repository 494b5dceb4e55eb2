import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpErrors } from '../../../../http-errors.js';
import { findNewsAuthor } from '../../../../repositories/news.js';
import { parseId } from '../../../parse-id.js';

/**
 * The item a PATCH or DELETE names, when the caller is its author: 404 for no such item, 403 for
 * anyone else. Checked before a body is read, so a stranger's upload never reaches the disk.
 */
export async function authorsItem(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ id: number; authorId: number }> {
  const id = parseId((request.params as { id?: string }).id);
  const authorId = id === undefined ? undefined : await findNewsAuthor(app.db, id);
  if (id === undefined || authorId === undefined) throw httpErrors.notFound();
  if (authorId !== request.principal!.userId) throw httpErrors.permissionDenied();
  return { id, authorId };
}
