import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { redactUrl } from '../logger.js';
import { createBodySeal } from '../mail/body-seal.js';
import { mailFolder } from '../mail/mailer.js';
import { recentMails } from '../repositories/mail-outbox.js';
import { parseEml } from './eml.js';
import { usageError } from './io.js';
import type { Command } from './command.js';

const RULE = '-'.repeat(72);

/**
 * `mail [--last N]`: the newest mails, newest first. Without SMTP_URL they are the `.eml` files of
 * DATA_DIR/mail (named by time, so the name orders them, links and tokens as mailed: the local
 * try-out's way to them); with it, the rows of the outbox, tokens redacted.
 */
export const mailCommand: Command = {
  usage: 'mail [--last N]',
  summary: 'print the newest mails (default 5)',
  options: { last: { type: 'string' } },
  async run(app, { values, positionals }, io) {
    const last = values.last === undefined ? 5 : Number(values.last);
    if (positionals.length > 0 || !Number.isInteger(last) || last < 1)
      throw usageError(`Usage: hello-admin ${this.usage} (N a whole number from 1)`);
    if (app.config.smtpUrl) {
      const rows = await recentMails(app.db, last);
      const seal = createBodySeal(app.config.secretKey);
      // With a mail server the links are the recipients' alone (docs/api.md): a pending mail's reset
      // or e-mail change token is redacted here, as in a delivered mail's stored copy.
      const body = (stored: string) => {
        try {
          return redactUrl(seal.open(stored).trimEnd());
        } catch {
          return '(sealed under another SECRET_KEY: unreadable)';
        }
      };
      if (rows.length === 0) io.out('The outbox is empty.');
      for (const row of rows) {
        const state = row.sent_at
          ? `sent ${row.sent_at}`
          : row.failed_at
            ? `given up ${row.failed_at}`
            : `pending (${row.attempts} attempts)`;
        io.out(
          [
            RULE,
            `#${row.id}  ${row.created_at}  ${state}`,
            `To: ${row.recipient}`,
            `Subject: ${row.subject}`,
            '',
            body(row.body_text),
          ].join('\n'),
        );
      }
      return;
    }
    const dir = mailFolder(app.config);
    const names = (await readdir(dir).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse()
      .slice(0, last);
    if (names.length === 0) io.out(`No mail in ${dir}.`);
    for (const name of names) {
      const mail = parseEml(await readFile(path.join(dir, name), 'utf8'));
      const h = mail.headers;
      io.out(
        [
          RULE,
          name,
          `Date: ${h.date ?? ''}`,
          `From: ${h.from ?? ''}`,
          `To: ${h.to ?? ''}`,
          `Subject: ${h.subject ?? ''}`,
          '',
          mail.text.trimEnd(),
        ].join('\n'),
      );
    }
  },
};
