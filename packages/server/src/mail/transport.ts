import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { parseSmtpUrl } from '../config.js';
import type { MailOutboxRow } from '../db/schema.js';

const require = createRequire(import.meta.url);
/** nodemailer, loaded when a transport first needs it rather than on every start. */
const nodemailer = () => require('nodemailer') as typeof import('nodemailer');

/** Hands one outbox mail to the world: an SMTP server, or a `.eml` file for local use. */
export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  deliver(mail: Pick<MailOutboxRow, 'id' | 'recipient' | 'subject' | 'body_text' | 'created_at'>): Promise<void>;
  close(): void;
}

const message = (from: string, mail: Parameters<MailTransport['deliver']>[0]) => ({
  from,
  to: mail.recipient,
  subject: mail.subject,
  text: mail.body_text,
  date: new Date(mail.created_at),
});

/**
 * nodemailer's options for SMTP_URL (checked by config.ts), as its parts: host, port, secure (smtps://),
 * auth decoded, and options given as a query, read as nodemailer reads them (numbers, true/false,
 * `tls.`-prefixed ones into tls, other dotted ones ignored; they never replace a part of the URL).
 * nodemailer is not handed the URL itself: it reads one with Node's legacy url.parse, whose
 * DeprecationWarning (DEP0170) would print the whole URL, password included, and it drops every other
 * option given beside a `url` (these timeouts were ignored while it was).
 */
export function smtpOptions(url: string) {
  const server = parseSmtpUrl(url);
  if (typeof server === 'string') throw new Error(`SMTP_URL: ${server}`); // never quotes the URL
  const { query, ...parts } = server;
  const options: Record<string, unknown> & { tls?: Record<string, unknown> } = {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
  const fromUrl: Record<string, unknown> = Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined));
  for (const [key, text] of query) {
    const value =
      text !== '' && !Number.isNaN(Number(text))
        ? Number(text)
        : text === 'true'
          ? true
          : text === 'false'
            ? false
            : text;
    if (key.startsWith('tls.')) options.tls = { [key.slice(4)]: value, ...options.tls };
    else if (!key.includes('.') && !(key in fromUrl)) options[key] = value;
  }
  return { ...options, ...fromUrl };
}

/**
 * SMTP, with timeouts short enough that a hanging server delays only its own mail's retry. Made at
 * once, so a malformed SMTP_URL stops the start instead of failing every delivery.
 */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer().createTransport(smtpOptions(url));
  return {
    kind: 'smtp',
    async deliver(mail) {
      await transporter.sendMail(message(from, mail));
    },
    close: () => transporter.close(),
  };
}

/**
 * One RFC 822 file per mail in `dir`, built by nodemailer exactly as it would go over SMTP. Written to
 * a temporary name and renamed, so a reader never sees half a mail; named by the outbox id, so a
 * retried delivery replaces its file instead of adding a second one. nodemailer is loaded with the
 * first mail: most starts send none.
 */
export function fileTransport(dir: string, from: string): MailTransport {
  let transporter: Transporter | undefined;
  return {
    kind: 'file',
    async deliver(mail) {
      transporter ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transporter.sendMail(message(from, mail));
      await mkdir(dir, { recursive: true });
      const stamp = mail.created_at.replace(/[-:.]/g, ''); // 20261122T101500123Z: names sort by time
      const target = path.join(dir, `${stamp}-${String(mail.id).padStart(6, '0')}.eml`);
      const temp = path.join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
      try {
        const file = await open(temp, 'wx', 0o600);
        try {
          await file.writeFile(info.message as Buffer);
          await file.sync(); // on disk before the outbox marks it delivered
        } finally {
          await file.close();
        }
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    close: () => {},
  };
}
