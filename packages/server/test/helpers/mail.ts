import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { simpleParser } from 'mailparser';
import type { Database } from '../../src/db/schema.js';

/** Mails not delivered (`sent_at` still empty): those waiting, and any given up on. */
export async function mailsWaiting(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The `.eml` files in DATA_DIR/mail (no SMTP_URL), oldest first. */
export function emlFiles(dataDir: string): { name: string; text: string }[] {
  const dir = path.join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(dir, name), 'utf8') }));
}

/** Waits until `count` .eml files exist, and answers them. */
export async function waitForEml(
  dataDir: string,
  count = 1,
  timeoutMs = 5000,
): Promise<{ name: string; text: string }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = emlFiles(dataDir);
    if (files.length >= count) return files;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} .eml file(s) in ${dataDir}/mail, found ${files.length}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An .eml file's recipient, subject and decoded plain-text body. */
export async function parseEml(raw: string): Promise<{ to: string; from: string; subject: string; text: string }> {
  const mail = await simpleParser(raw);
  const address = (field: typeof mail.to) => [field ?? []].flat()[0]?.value[0]?.address ?? '';
  return { to: address(mail.to), from: address(mail.from), subject: mail.subject ?? '', text: mail.text ?? '' };
}

/** The reset link in a mail's decoded text, and its token. */
export function resetLink(text: string): { link: string; token: string } {
  const match = /(https?:\/\/\S+\?token=([A-Za-z0-9_-]+))/.exec(text);
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return { link: match[1]!, token: match[2]! };
}
