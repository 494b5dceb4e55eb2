import type { Kysely, Transaction } from 'kysely';
import type { Profile } from '@hello/contract';
import { isPostgres } from '../db/database.js';
import { withAsciiDomain } from '../email-address.js';
import type { Database, UserRow } from '../db/schema.js';

type Db = Kysely<Database>;

/**
 * The unique key of an address: letter case never makes two accounts, nor does a domain written in
 * Unicode or in ASCII (a login may name it either way).
 */
export const emailKey = (email: string): string => storedEmail(email).email_key;

/** An address as the users table holds it: its one spelling, and its unique key. */
function storedEmail(email: string): { email: string; email_key: string } {
  const spelled = withAsciiDomain(email.trim());
  return { email: spelled, email_key: spelled.toLowerCase() };
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts the user; resolves undefined when the address is taken (the unique key decides, race-free). */
export async function insertUser(
  db: Db,
  email: string,
  passwordHash: string,
  now = new Date(),
): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({
      ...storedEmail(email),
      password_hash: passwordHash,
      first_name: '',
      last_name: '',
      telephone: '',
      mobile: '',
      website: '',
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('email_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Gives the user a new address; false when another account has it. */
export async function setEmail(db: Db, userId: number, email: string): Promise<boolean> {
  const stored = storedEmail(email);
  const other = await db.selectFrom('users').select('id').where('email_key', '=', stored.email_key).executeTakeFirst();
  if (other) return other.id === userId;
  // A registration of the address between the two statements makes this one fail (isUniqueViolation).
  await db.updateTable('users').set(stored).where('id', '=', userId).execute();
  return true;
}

/**
 * SQLite's and PostgreSQL's words for a unique (or primary key) constraint that refused a row. On
 * PostgreSQL it aborts the transaction: catch it outside.
 */
export const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
};

/** SQLite's and PostgreSQL's words for a row that names a parent row no longer there (a deleted user). */
export const isForeignKeyViolation = (error: unknown): boolean => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/**
 * Replaces the password hash only while the stored one is still `checked`, the one a password was
 * checked against: false when a reset or another change came first, which then stands.
 */
export async function replacePasswordHash(db: Db, userId: number, checked: string, passwordHash: string) {
  const result = await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .where('password_hash', '=', checked)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The user's row as it is now. In a transaction on PostgreSQL the row stays share-locked until it
 * ends, so a reset or change of the password, or two-step sign-in turned on, waits for it, or it for
 * them.
 */
export function findUserShared(db: Db, id: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .$if(isPostgres(db), (q) => q.forShare())
    .executeTakeFirst();
}

/**
 * True while the user's row still has the password hash and the address it was read with; locked as
 * by findUserShared, so a confirmed e-mail change (changeAccount) waits for it, or it for that. With
 * `forChange`, locked as changeAccount locks it instead, for a transaction that goes on to change it.
 */
export async function stillAsRead(
  db: Db,
  user: Pick<UserRow, 'id' | 'password_hash'> & Partial<Pick<UserRow, 'email_key'>>,
  forChange = false,
): Promise<boolean> {
  const { email_key: emailKey } = user;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', user.id)
    .where('password_hash', '=', user.password_hash)
    .$if(emailKey !== undefined, (q) => q.where('email_key', '=', emailKey as string))
    .$if(isPostgres(db), (q) => (forChange ? q.forNoKeyUpdate() : q.forShare()))
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateProfile(db: Db, userId: number, profile: Omit<Profile, 'email'>): Promise<void> {
  await db
    .updateTable('users')
    .set({
      first_name: profile.first_name,
      last_name: profile.last_name,
      telephone: profile.user_profile.telephone,
      mobile: profile.user_profile.mobile,
      website: profile.user_profile.website,
    })
    .where('id', '=', userId)
    .execute();
}

export const toProfile = (user: UserRow): Profile => ({
  email: user.email,
  first_name: user.first_name,
  last_name: user.last_name,
  user_profile: { telephone: user.telephone, mobile: user.mobile, website: user.website },
});

/**
 * Runs a change of the account as a whole (a reset, a confirmed e-mail change, a deletion) in one
 * transaction that first locks the user's row (PostgreSQL; SQLite's transactions are one at a time
 * anyway). Row first, then what hangs off it: every such change takes them in that order, so none of
 * them deadlocks with another. `FOR NO KEY UPDATE`, the lock a password change's update takes, so
 * that those wait for each other, while a news post, whose item only refers to the row
 * (`FOR KEY SHARE`), goes on.
 */
export function changeAccount<T>(
  db: Db,
  userId: number,
  change: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    return change(trx);
  });
}

/**
 * In a transaction, before anything else of it: locks the user's row as changeAccount does (PostgreSQL)
 * until the transaction ends. False when there is no such user (deleted).
 */
export async function lockUser(trx: Db, userId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .$if(isPostgres(trx), (q) => q.forNoKeyUpdate())
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes the user; sessions, reset and e-mail change tokens go with it (ON DELETE CASCADE). */
export async function deleteUser(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
