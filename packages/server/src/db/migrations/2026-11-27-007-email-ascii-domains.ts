import { domainToASCII } from 'node:url';
import { sql, type Kysely } from 'kysely';

/**
 * Frozen (its own copy of the conversion in email-address.ts as shipped with it). Addresses whose
 * domain is written in Unicode, which only `cli create-user` could store before, in the ASCII form
 * every lookup now uses: otherwise such an account could no longer sign in, and its mailbox could be
 * registered a second time. An address whose ASCII form another account has already is left as it
 * was: two accounts cannot be merged here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Only rows with a character beyond ASCII: more bytes than characters, on either database.
  const rows: { id: number; email: string }[] = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where(sql<boolean>`length(email) <> octet_length(email)`)
    .execute();
  for (const row of rows) {
    const email = withAsciiDomain(row.email);
    if (email === row.email) continue;
    const key = email.toLowerCase();
    const other = await db.selectFrom('users').select('id').where('email_key', '=', key).executeTakeFirst();
    if (other) continue;
    await db.updateTable('users').set({ email, email_key: key }).where('id', '=', row.id).execute();
  }
}

export async function down(): Promise<void> {
  // The Unicode spelling is not kept: the ASCII form names the same mailbox.
}

function withAsciiDomain(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  if (at < 0 || !/\P{ASCII}/u.test(domain) || !/^[a-z0-9.\-\u{80}-\u{10FFFF}]+$/iu.test(domain)) return address;
  const ascii = domainToASCII(domain);
  return /^[a-z0-9.-]+$/.test(ascii) ? `${address.slice(0, at)}@${ascii}` : address;
}
