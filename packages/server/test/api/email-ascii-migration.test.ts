import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import * as storeIdentity from '../../src/db/migrations/2026-11-28-008-store-identity.js';
import { insertUser } from '../../src/repositories/users.js';
import { goodPassword, login } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { uniqueEmail } from '../helpers/users.js';

const MIGRATION = '2026-11-27-007-email-ascii-domains';

describe.each(dialects)('migration %s: Unicode domains written in ASCII (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  /** An account as `cli create-user` stored it before: the domain as typed, the key lower-cased. */
  async function storedAsBefore(email: string, password = goodPassword()) {
    const user = (await insertUser(
      t.app.db,
      `${email.split('@')[0]}@example.org`,
      await t.app.passwords.hash(password),
    ))!;
    await t.app.db
      .updateTable('users')
      .set({ email, email_key: email.toLowerCase() })
      .where('id', '=', user.id)
      .execute();
    return { id: user.id, password };
  }
  const row = (id: number) =>
    t.app.db.selectFrom('users').select(['email', 'email_key']).where('id', '=', id).executeTakeFirstOrThrow();

  it('rewrites such an address and its key, so the account signs in again; a taken ASCII form is left alone', async () => {
    const local = () => uniqueEmail('old').split('@')[0]!;
    const unicode = `${local()}@Bücher.de`;
    const old = await storedAsBefore(unicode);
    // The mailbox registered a second time, in ASCII, before the migration ran: nothing to merge.
    const twice = local();
    const other = await storedAsBefore(`${twice}@bücher.de`);
    await insertUser(t.app.db, `${twice}@xn--bcher-kva.de`, 'x');
    const ascii = await storedAsBefore(`${local()}@Example.COM`);
    expect((await login(t.app, unicode, old.password)).statusCode).toBe(401); // what the new key alone broke

    // The migrations after it undone too, so that all run again in their order.
    await storeIdentity.down(t.app.db);
    await sql`delete from kysely_migration where name >= ${MIGRATION}`.execute(t.app.db);
    expect(await migrateToLatest(t.app.db)).toEqual([MIGRATION, '2026-11-28-008-store-identity']);

    const [name] = unicode.split('@');
    expect(await row(old.id)).toEqual({
      email: `${name}@xn--bcher-kva.de`,
      email_key: `${name}@xn--bcher-kva.de`.toLowerCase(),
    });
    expect((await login(t.app, unicode, old.password)).statusCode).toBe(200);
    expect(await row(other.id)).toEqual({ email: `${twice}@bücher.de`, email_key: `${twice}@bücher.de` });
    const asciiRow = await row(ascii.id);
    expect(asciiRow.email).toMatch(/@Example\.COM$/);
  });
});
