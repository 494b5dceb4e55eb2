import type { Kysely } from 'kysely';
import type { Database, PdfRow } from '../db/schema.js';

type Db = Kysely<Database>;

export function findPdf(db: Db, id: number): Promise<PdfRow | undefined> {
  return db.selectFrom('pdfs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listPdfs(db: Db): Promise<PdfRow[]> {
  return db.selectFrom('pdfs').selectAll().orderBy('id').execute();
}

/** Inserts unless the id is taken; true when this call's row went in. Safe when instances race. */
export async function insertPdf(db: Db, row: PdfRow): Promise<boolean> {
  const inserted = await db
    .insertInto('pdfs')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Undoes an insert whose file could not be put in place. */
export async function deletePdf(db: Db, id: number): Promise<void> {
  await db.deleteFrom('pdfs').where('id', '=', id).execute();
}

export async function existingPdfIds(db: Db, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('pdfs').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function nextPdfId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('pdfs')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

/** The subset of `names` that some PDF row stores: what the start-up sweep must keep. */
export async function knownPdfNames(db: Db, names: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db
      .selectFrom('pdfs')
      .select('storage_name')
      .where('storage_name', 'in', names.slice(i, i + 500))
      .execute();
    for (const row of rows) known.add(row.storage_name);
  }
  return known;
}
