import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';
import { listNews, newsRevision, type NewsItemWithFiles } from '../../../../repositories/news.js';

/**
 * The news list's answer, kept as ready bytes. It is the same for every caller, changes only when an
 * item is added (or an add is undone) and when the attachment links roll over to their next expiry
 * step; so it is reused while the stored revision (raised in the same transaction as each change, by
 * any instance) and the links' expiry stand. Each request still reads the revision, which keeps a
 * change made through another server instance visible at once: given by the caller when it was read
 * already (with the session, repositories/sessions.ts), else asked here.
 */
export function createNewsListCache(db: Kysely<Database>, linksExpiry: (nowMs: number) => number) {
  let kept: { revision: number; expiry: number; body: Buffer } | undefined;

  return async function newsListBody(
    render: (items: NewsItemWithFiles[], nowMs: number) => string,
    revisionRead?: number,
  ): Promise<Buffer> {
    const nowMs = Date.now();
    const expiry = linksExpiry(nowMs);
    // Read before the list: if a change lands in between, the body is newer than its revision says
    // and is only rebuilt once more, never the other way round.
    const revision = revisionRead ?? (await newsRevision(db));
    if (kept && kept.revision === revision && kept.expiry === expiry) return kept.body;
    const body = Buffer.from(render(await listNews(db), nowMs));
    kept = { revision, expiry, body };
    return body;
  };
}
