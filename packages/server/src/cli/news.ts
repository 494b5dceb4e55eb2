import { newsLimits } from '@hello/contract';
import { deleteNewsItemWithFiles } from '../news/news-changes.js';
import { listNewsPage, type NewsItemWithFiles, type NewsPosition } from '../repositories/news.js';
import { parseId } from '../routes/parse-id.js';
import { CliError, usageError } from './io.js';
import type { Command } from './command.js';

const USAGE = 'news list [--last N] | news delete ID';

/**
 * `news list [--last N]`: the newest items (default 20), newest first, one line each.
 * `news delete ID`: moderation; the item goes with its files, removed from disk after the commit,
 * exactly as when its author deletes it.
 */
export const newsCommand: Command = {
  usage: USAGE,
  summary: 'list the newest news items (default 20), or delete one',
  options: { last: { type: 'string' } },
  async run(app, { values, positionals }, io) {
    const [action, ...rest] = positionals;
    if (action === 'list' && rest.length === 0) {
      const last = values.last === undefined ? 20 : Number(values.last);
      if (!Number.isInteger(last) || last < 1)
        throw usageError(`Usage: hello-admin ${USAGE} (N a whole number from 1)`);
      const items = await newestItems(app, last);
      io.out(['id'.padStart(7), 'created (UTC)'.padEnd(20), 'files', 'author'.padEnd(32), 'title'].join('  '));
      for (const item of items) {
        const created = item.created_at.slice(0, 19).replace('T', ' ');
        io.out(
          [
            String(item.id).padStart(7),
            created.padEnd(20),
            String(item.files.length).padStart(5),
            item.author.padEnd(32),
            oneLine(item.title),
          ].join('  '),
        );
      }
      io.out(`${items.length} item${items.length === 1 ? '' : 's'}`);
      return;
    }
    if (action === 'delete' && rest.length === 1 && values.last === undefined) {
      const id = parseId(rest[0]);
      if (id === undefined) throw usageError(`ID must be a whole number from 1, not "${rest[0]}".`);
      if (!(await deleteNewsItemWithFiles({ db: app.db, uploads: app.uploads, log: app.log }, id)))
        throw new CliError(`No news item ${id}.`);
      io.out(`Deleted news item ${id} and its files.`);
      return;
    }
    throw usageError(`Usage: hello-admin ${USAGE}`);
  },
};

/** The newest `count` items, read a page at a time. */
async function newestItems(app: Parameters<Command['run']>[0], count: number): Promise<NewsItemWithFiles[]> {
  const items: NewsItemWithFiles[] = [];
  let before: NewsPosition | undefined;
  for (;;) {
    const page = await listNewsPage(app.db, Math.min(newsLimits.maxPageSize, count - items.length), before);
    items.push(...page.items);
    const last = page.items.at(-1);
    if (!page.more || !last || items.length >= count) return items;
    before = { createdAt: last.created_at, id: last.id };
  }
}

/** A title on one line of the listing: control characters (a newline, an escape) shown as spaces. */
const oneLine = (text: string) => text.replace(/\p{Cc}/gu, ' ');
