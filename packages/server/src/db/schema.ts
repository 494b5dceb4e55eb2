import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Row types of every table. Timestamps are ISO 8601 UTC strings (`toISOString()`): they sort as text
 * and read the same on SQLite and PostgreSQL, so no query needs a dialect branch.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  news_items: NewsItemsTable;
  news_files: NewsFilesTable;
  pdfs: PdfsTable;
  rate_limits: RateLimitsTable;
  mail_outbox: MailOutboxTable;
  news_revision: NewsRevisionTable;
  email_change_tokens: EmailChangeTokensTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  store_identity: StoreIdentityTable;
}

export interface UsersTable {
  id: Generated<number>;
  /** As the user typed it. */
  email: string;
  /** Lower-cased: the unique key, so addresses are unique regardless of letter case. */
  email_key: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  telephone: string;
  mobile: string;
  website: string;
  created_at: string;
  /** Two-step sign-in (migration 006): the TOTP secret, sealed (auth/two-step.ts); null when off. */
  totp_secret: string | null;
  /** A secret set up and not yet confirmed by a first code, sealed. */
  totp_pending_secret: string | null;
  totp_enabled_at: string | null;
  /** The time step of the last code accepted: a code of that step or an earlier one is refused. */
  totp_last_step: number | null;
}

/** A login. Refresh tokens name their session; ending the session ends every token of it. */
export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
  /** The device (User-Agent, at most 512 characters) and client address of the sign-in or last refresh. */
  user_agent: string;
  ip: string;
  /** Raised at most once a minute (auth/sessions.ts); null only in rows of before migration 005. */
  last_used_at: string | null;
}

export interface PasswordResetTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token, hex: the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A recovery code of two-step sign-in (migration 006): SHA-256 of the code, single use. */
export interface TotpRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
}

/** An e-mail change waiting for the link mailed to `new_email` (migration 005). */
export interface EmailChangeTokensTable {
  id: Generated<number>;
  user_id: number;
  new_email: string;
  /** SHA-256 of the token, hex, as for reset tokens. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface NewsItemsTable {
  id: Generated<number>;
  author_id: number;
  title: string;
  content: string;
  created_at: string;
}

export interface NewsFilesTable {
  id: Generated<number>;
  news_id: number;
  /** The server-chosen file name under DATA_DIR/uploads. */
  storage_name: string;
  /** The client's file name: metadata only, never a path. */
  original_name: string;
  size: number;
  content_type: string;
  position: number;
}

export interface PdfsTable {
  id: number;
  file_name: string;
  title: string;
  storage_name: string;
  size: number;
  sha256: string;
  created_at: string;
}

/** Fixed-window counters, shared by every server instance of a deployment. */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  hits: number;
}

/** Mail waiting to be delivered over SMTP, kept until sent so a mail server outage loses nothing. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
  /** Set when delivery was given up (migration 002). */
  failed_at: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewsItemRow = Selectable<NewsItemsTable>;
export type NewsFileRow = Selectable<NewsFilesTable>;
export type PdfRow = Selectable<PdfsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;

/** One row (id 1): raised by every change to the news list, so a kept answer knows when it is stale. */
export interface NewsRevisionTable {
  id: number;
  revision: number;
}

/** One row (id 1): the random id that names this database, repeated in DATA_DIR/store_id (migration 008). */
export interface StoreIdentityTable {
  id: number;
  store_id: string;
}
