import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { mailFolder } from '../../src/mail/mailer.js';
import { deleteExpired } from '../../src/repositories/retention.js';
import { insertUser } from '../../src/repositories/users.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { uniqueEmail } from '../helpers/users.js';

/**
 * Retention (docs/api.md, "Operating the product"): ended or expired sessions, used or expired reset tokens,
 * used recovery codes, delivered (or given-up) mails and the mail folder's `.eml` files older than
 * RETENTION_DAYS go; everything else stays. The clock is
 * moved by passing `now`: far in the future, so the rows of one test are never old to another
 * instance's real clock.
 */
const DAY = 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Rows of every kind, and mail files, around the cutoff of `now` - `days`; their names say whether they must go. */
async function seedAround(db: Kysely<Database>, now: number, days = 30, mailDir?: string) {
  const cutoff = now - days * DAY;
  const user = await insertUser(db, uniqueEmail('retention'), 'not-a-real-hash');
  if (!user) throw new Error('no user');
  const session = (id: string, expiresAt: number, endedAt: number | null) => ({
    id,
    user_id: user.id,
    created_at: iso(expiresAt - 14 * DAY),
    expires_at: iso(expiresAt),
    ended_at: endedAt === null ? null : iso(endedAt),
    user_agent: '',
    ip: '',
  });
  await db
    .insertInto('sessions')
    .values([
      session('old-ended', cutoff + 13 * DAY, cutoff - 1), // logged out 30 days and 1 ms ago, would expire later
      session('old-expired', cutoff - 1, null),
      session('keep-ended-recently', cutoff + 13 * DAY, cutoff + 1),
      session('keep-expired-recently', cutoff + 1, null),
      session('keep-expired-at-cutoff', cutoff, null), // exactly RETENTION_DAYS: not *more* than that
      session('keep-live', now + DAY, null),
    ])
    .execute();
  const token = (hash: string, expiresAt: number, usedAt: number | null) => ({
    user_id: user.id,
    token_hash: hash,
    created_at: iso(expiresAt - 3600_000),
    expires_at: iso(expiresAt),
    used_at: usedAt === null ? null : iso(usedAt),
  });
  await db
    .insertInto('password_reset_tokens')
    .values([
      token('old-used', cutoff + 1000, cutoff - 1), // used, and its expiry not yet old: goes by its use
      token('old-expired', cutoff - 1, null),
      token('keep-used-recently', cutoff + 1000, cutoff + 1),
      token('keep-expired-recently', cutoff + 1, null),
      token('keep-usable', now + 3600_000, null),
    ])
    .execute();
  // E-mail change links go by the same rule, with the same names.
  const resetRows = await db.selectFrom('password_reset_tokens').selectAll().where('user_id', '=', user.id).execute();
  await db
    .insertInto('email_change_tokens')
    .values(resetRows.map(({ id: _id, ...row }) => ({ ...row, new_email: uniqueEmail('retention-new') })))
    .execute();
  const mail = (subject: string, fields: { sent_at?: string; failed_at?: string; created_at?: string }) => ({
    recipient: 'someone@example.com',
    subject,
    body_text: 'sealed',
    created_at: fields.created_at ?? iso(cutoff - DAY),
    attempts: 1,
    next_attempt_at: iso(cutoff - DAY),
    sent_at: fields.sent_at ?? null,
    failed_at: fields.failed_at ?? null,
  });
  await db
    .insertInto('mail_outbox')
    .values([
      mail('old-delivered', { sent_at: iso(cutoff - 1) }),
      mail('old-given-up', { failed_at: iso(cutoff - 1) }),
      mail('keep-delivered-recently', { sent_at: iso(cutoff + 1) }),
      mail('keep-given-up-recently', { failed_at: iso(cutoff + 1) }),
      mail('keep-pending-for-ages', { created_at: iso(cutoff - 365 * DAY) }), // undelivered mail is never deleted
    ])
    .execute();
  const code = (hash: string, usedAt: number | null) => ({
    user_id: user.id,
    code_hash: hash,
    used_at: usedAt === null ? null : iso(usedAt),
  });
  await db
    .insertInto('totp_recovery_codes')
    .values([code('old-used', cutoff - 1), code('keep-used-recently', cutoff + 1), code('keep-unused', null)])
    .execute();
  if (mailDir) {
    mkdirSync(mailDir, { recursive: true });
    const file = (name: string, writtenAt: number) => {
      writeFileSync(path.join(mailDir, name), 'Subject: reset\n\nhttp://localhost/reset?token=secret\n');
      utimesSync(path.join(mailDir, name), new Date(writtenAt), new Date(writtenAt));
    };
    file('20990101T000000000Z-000001-old.eml', cutoff - 1000);
    file('.0123456789ab.tmp', cutoff - 1000); // a write a crash cut short
    file('20990101T000000000Z-000002-keep-recent.eml', cutoff + 1000);
    file('keep-not-mail.txt', cutoff - 365 * DAY); // not the mailer's: never touched
  }
  await db
    .insertInto('rate_limits')
    .values({ key: 'retention-test', window_start: Math.floor((cutoff - 365 * DAY) / 1000), hits: 3 })
    .execute();
}

/** What the three tables and the counters hold, by the names seedAround gives. */
async function names(db: Kysely<Database>) {
  const sorted = (rows: { name: string }[]) => rows.map((r) => r.name).sort();
  return {
    sessions: sorted(await db.selectFrom('sessions').select('id as name').execute()),
    resetTokens: sorted(await db.selectFrom('password_reset_tokens').select('token_hash as name').execute()),
    emailTokens: sorted(await db.selectFrom('email_change_tokens').select('token_hash as name').execute()),
    mails: sorted(await db.selectFrom('mail_outbox').select('subject as name').execute()),
    rateLimits: sorted(await db.selectFrom('rate_limits').select('key as name').execute()),
    recoveryCodes: sorted(await db.selectFrom('totp_recovery_codes').select('code_hash as name').execute()),
  };
}

/** The mail folder's files, sorted. */
const mailFiles = (dir: string) => readdirSync(dir).sort();
const MAIL_FILES_KEPT = ['20990101T000000000Z-000002-keep-recent.eml', 'keep-not-mail.txt'];
/** What a first run over seedAround's rows and files deletes: the `old-` ones. */
const FIRST_RUN = { sessions: 2, resetTokens: 2, emailTokens: 2, mails: 2, recoveryCodes: 1, mailFiles: 2 };

const KEPT = {
  sessions: ['keep-ended-recently', 'keep-expired-at-cutoff', 'keep-expired-recently', 'keep-live'],
  resetTokens: ['keep-expired-recently', 'keep-usable', 'keep-used-recently'],
  emailTokens: ['keep-expired-recently', 'keep-usable', 'keep-used-recently'],
  mails: ['keep-delivered-recently', 'keep-given-up-recently', 'keep-pending-for-ages'],
  // Counters are the rate limiter's to prune (every 10 minutes, once their window is over).
  rateLimits: ['retention-test'],
  recoveryCodes: ['keep-unused', 'keep-used-recently'],
};

async function emptyTables(db: Kysely<Database>) {
  for (const table of [
    'sessions',
    'password_reset_tokens',
    'email_change_tokens',
    'mail_outbox',
    'rate_limits',
    'totp_recovery_codes',
    'users',
  ] as const)
    await db.deleteFrom(table).execute();
}

describe.each(dialects)('retention (%s)', (dialect) => {
  let t: TestApp;
  // The suite's own app never runs the job by itself: each test says when it runs.
  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { retention: { firstRunMs: [3600_000, 3600_000] } });
  });
  afterAll(() => t.close());
  let mailDir: string;
  beforeEach(async () => {
    await emptyTables(t.app.db);
    mailDir = mailFolder(t.config);
    rmSync(mailDir, { recursive: true, force: true });
  });

  it('deletes exactly what ended, expired, was used or was delivered more than RETENTION_DAYS ago', async () => {
    const now = Date.UTC(2100, 0, 1);
    await seedAround(t.app.db, now, 30, mailDir);
    const none = { sessions: 0, resetTokens: 0, emailTokens: 0, mails: 0, recoveryCodes: 0, mailFiles: 0 };
    expect(await t.app.retention.run(new Date(now))).toEqual(FIRST_RUN);
    expect(await names(t.app.db)).toEqual(KEPT);
    expect(mailFiles(mailDir)).toEqual(MAIL_FILES_KEPT);
    // Nothing more to do at the same moment; a day later the recent ones are old too.
    expect(await t.app.retention.run(new Date(now))).toEqual(none);
    expect(await t.app.retention.run(new Date(now + DAY))).toEqual({
      sessions: 3,
      resetTokens: 2,
      emailTokens: 2,
      mails: 2,
      recoveryCodes: 1,
      mailFiles: 1,
    });
    expect(await names(t.app.db)).toEqual({
      sessions: ['keep-live'],
      resetTokens: ['keep-usable'],
      emailTokens: ['keep-usable'],
      mails: ['keep-pending-for-ages'],
      rateLimits: ['retention-test'],
      recoveryCodes: ['keep-unused'],
    });
    expect(mailFiles(mailDir)).toEqual(['keep-not-mail.txt']);
    // With no mail folder at all (nothing written yet), a run removes no file and fails nothing.
    rmSync(mailDir, { recursive: true });
    expect(await t.app.retention.run(new Date(now + 2 * DAY))).toEqual(none);
  });

  it('counts RETENTION_DAYS from the configuration', async () => {
    const now = Date.UTC(2101, 0, 1);
    await seedAround(t.app.db, now, 7, mailDir);
    const weekly = await buildApp(
      { ...t.config, retentionDays: 7 },
      { retention: { firstRunMs: [3600_000, 3600_000] } },
    );
    try {
      expect(await weekly.retention.run(new Date(now))).toEqual(FIRST_RUN);
      expect(await names(t.app.db)).toEqual(KEPT);
      expect(mailFiles(mailDir)).toEqual(MAIL_FILES_KEPT);
    } finally {
      await weekly.close();
    }
  });

  it('deletes a backlog in batches, and stops between batches when told to', async () => {
    const now = Date.UTC(2102, 0, 1);
    const cutoff = new Date(now - 30 * DAY);
    await seedAround(t.app.db, now);
    const user = await t.app.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const backlog = Array.from({ length: 25 }, (_, i) => ({
      id: `backlog-${String(i).padStart(2, '0')}`,
      user_id: user.id,
      created_at: iso(now - 400 * DAY),
      expires_at: iso(now - 386 * DAY + i),
      ended_at: null,
      user_agent: '',
      ip: '',
    }));
    await t.app.db.insertInto('sessions').values(backlog).execute();

    const stopped = new AbortController();
    stopped.abort();
    expect(await deleteExpired(t.app.db, cutoff, { batchSize: 4, signal: stopped.signal })).toEqual({
      sessions: 0,
      resetTokens: 0,
      emailTokens: 0,
      mails: 0,
      recoveryCodes: 0,
    });
    expect(await deleteExpired(t.app.db, cutoff, { batchSize: 4 })).toEqual({
      sessions: 27,
      resetTokens: 2,
      emailTokens: 2,
      mails: 2,
      recoveryCodes: 1,
    });
    expect(await names(t.app.db)).toEqual(KEPT);
  });

  it('gives the same result, without an error, when two instances run it at the same moment', async () => {
    const now = Date.UTC(2103, 0, 1);
    const cutoff = now - 30 * DAY;
    await seedAround(t.app.db, now, 30, mailDir);
    const user = await t.app.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const many = 60;
    await t.app.db
      .insertInto('sessions')
      .values(
        Array.from({ length: many }, (_, i) => ({
          id: `many-${i}`,
          user_id: user.id,
          created_at: iso(cutoff - 20 * DAY),
          expires_at: iso(cutoff - DAY + i),
          ended_at: null,
          user_agent: '',
          ip: '',
        })),
      )
      .execute();
    await t.app.db
      .insertInto('password_reset_tokens')
      .values(
        Array.from({ length: many }, (_, i) => ({
          user_id: user.id,
          token_hash: `many-${i}`,
          created_at: iso(cutoff - DAY),
          expires_at: iso(cutoff - 2 * 3600_000 + i),
          used_at: null,
        })),
      )
      .execute();
    await t.app.db
      .insertInto('mail_outbox')
      .values(
        Array.from({ length: many }, (_, i) => ({
          recipient: 'x@example.com',
          subject: `many-${i}`,
          body_text: 'sealed',
          created_at: iso(cutoff - 2 * DAY),
          attempts: 1,
          next_attempt_at: iso(cutoff - 2 * DAY),
          sent_at: iso(cutoff - DAY + i),
          failed_at: null,
        })),
      )
      .execute();

    // Two more instances on the same database, in small batches so that their statements interleave.
    const options = { retention: { batchSize: 7, firstRunMs: [3600_000, 3600_000] as const } };
    const a = await buildApp(t.config, options);
    const b = await buildApp(t.config, options).catch(async (error: unknown) => {
      await a.close();
      throw error;
    });
    try {
      const results = await Promise.allSettled([a.retention.run(new Date(now)), b.retention.run(new Date(now))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      const [first, second] = results.map(
        (r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof a.retention.run>>>).value,
      );
      // Every old row deleted once, by one of the two.
      expect({
        sessions: first!.sessions + second!.sessions,
        resetTokens: first!.resetTokens + second!.resetTokens,
        emailTokens: first!.emailTokens + second!.emailTokens,
        mails: first!.mails + second!.mails,
        recoveryCodes: first!.recoveryCodes + second!.recoveryCodes,
        mailFiles: first!.mailFiles + second!.mailFiles,
      }).toEqual({
        sessions: many + 2,
        resetTokens: many + 2,
        emailTokens: 2,
        mails: many + 2,
        recoveryCodes: 1,
        mailFiles: 2,
      });
      expect(await names(t.app.db)).toEqual(KEPT);
      expect(mailFiles(mailDir)).toEqual(MAIL_FILES_KEPT);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('still deletes and reports the rows when the mail folder cannot be read, and logs that', async () => {
    const now = Date.UTC(2104, 0, 1);
    await seedAround(t.app.db, now);
    writeFileSync(mailDir, 'a file where the folder belongs'); // readdir fails (ENOTDIR), even as root
    const lines: string[] = [];
    const app = await buildApp(
      { ...t.config, logLevel: 'error' },
      { logStream: { write: (line) => void lines.push(line) }, retention: { firstRunMs: [3600_000, 3600_000] } },
    );
    try {
      expect(await app.retention.run(new Date(now))).toEqual({ ...FIRST_RUN, mailFiles: 0 });
      expect(lines.filter((line) => line.includes('retention: the mail folder could not be cleaned'))).toHaveLength(1);
      expect(await names(t.app.db)).toEqual(KEPT);
    } finally {
      await app.close();
      rmSync(mailDir, { force: true });
    }
  });

  it('runs on its own timer, logs a failed run and goes on, and stops on app.close()', async () => {
    const lines: string[] = [];
    const database = openDatabase(t.config);
    const app = await buildApp(
      { ...t.config, logLevel: 'error' },
      {
        database,
        logStream: { write: (line) => void lines.push(line) },
        retention: { firstRunMs: [0, 0], everyMs: 20 },
      },
    );
    const user = await insertUser(t.app.db, uniqueEmail('timer'), 'not-a-real-hash');
    const oldSession = (id: string) => ({
      id,
      user_id: user!.id,
      created_at: iso(Date.now() - 60 * DAY),
      expires_at: iso(Date.now() - 46 * DAY),
      ended_at: null,
      user_agent: '',
      ip: '',
    });
    const present = async (id: string) =>
      (await t.app.db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    try {
      expect(app.retention.scheduled).toBe(false); // planned when the app is ready
      await t.app.db.insertInto('sessions').values(oldSession('timer-1')).execute();
      await app.ready();
      expect(app.retention.scheduled).toBe(true);
      await expect.poll(() => present('timer-1'), { timeout: 10_000 }).toBe(false);

      // The database goes away under it: each run fails, is logged, and the next one is still planned.
      await database.close();
      await expect
        .poll(() => lines.filter((l) => l.includes('retention: run failed')).length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(2);
    } finally {
      await app.close();
    }
    expect(app.retention.scheduled).toBe(false);
    // Closed: nothing runs any more (another row, old to the real clock, stays).
    const runsLogged = lines.length;
    await t.app.db.insertInto('sessions').values(oldSession('timer-2')).execute();
    await new Promise((r) => setTimeout(r, 150));
    expect(await present('timer-2')).toBe(true);
    expect(lines.length).toBe(runsLogged);
  });
});

describe('RETENTION_DAYS', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-retention-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is 30 by default, a whole number of at least 1 otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).retentionDays).toBe(30);
    expect(loadConfig({ DATA_DIR: dataDir, RETENTION_DAYS: '7' }).retentionDays).toBe(7);
    for (const wrong of ['0', '-1', '1.5', 'month']) {
      expect(() => loadConfig({ DATA_DIR: dataDir, RETENTION_DAYS: wrong })).toThrow(ConfigError);
    }
  });
});
