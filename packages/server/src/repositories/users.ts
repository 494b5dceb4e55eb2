import type { Kysely } from 'kysely';
import type { Profile } from '@hello/contract';
import type { Database, UserRow } from '../db/schema.js';

type Db = Kysely<Database>;

/** The unique key of an address: letter case never makes two accounts. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

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
      email: email.trim(),
      email_key: emailKey(email),
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

/** One past the highest user id stored (1 when there is none): an id such as the next account would get. */
export async function nextUserId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
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
