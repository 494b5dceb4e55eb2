import { randomBytes } from 'node:crypto';
import type { TestApp } from './build.js';
import { insertUser } from '../../src/repositories/users.js';

export interface TestUser {
  userId: number;
  email: string;
  password: string;
  access: string;
  refresh: string;
}

// Letters only (a to p): a hex token such as 12345a67 is close enough to a numeric test password
// ("1234567") for the e-mail similarity rule to refuse it as well, now and then.
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${[...randomBytes(4)].map((byte) => String.fromCharCode(97 + (byte >> 4), 97 + (byte & 15))).join('')}@example.com`;

/** A user made directly in the database, with a live session (no HTTP, no rate limits). */
export async function createUser(
  t: TestApp,
  email = uniqueEmail(),
  password = 'correct horse battery',
): Promise<TestUser> {
  const user = await insertUser(t.app.db, email, await t.app.passwords.hash(password));
  if (!user) throw new Error(`${email} exists already`);
  const tokens = await t.app.sessions.start(user.id);
  return { userId: user.id, email, password, access: tokens.access, refresh: tokens.refresh };
}

export const bearer = (user: Pick<TestUser, 'access'>) => ({ authorization: `Bearer ${user.access}` });
export const tokenAuth = (user: Pick<TestUser, 'refresh'>) => ({ authorization: `Token ${user.refresh}` });
