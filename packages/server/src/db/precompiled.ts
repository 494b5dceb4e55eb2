import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { readNow } from './sqlite-statements.js';

type Db = Kysely<Database>;

/**
 * A query built and compiled once per database, then run with new parameter values: for the few
 * queries of every request, where Kysely's building and compiling costs several times the query
 * itself. `build` is called once with `samples`, values that must each end up as exactly one bound
 * parameter (checked here), so that each call's values can take their places; any other bound value
 * is a constant of the query.
 *
 * On SQLite a read runs at once on the connection (sqlite-statements.ts, readNow), without the
 * promises of Kysely's driver, which cost as much again as the query; inside a transaction, through
 * Kysely as any other query.
 */
export function precompiled<P extends readonly unknown[], R>(
  samples: P,
  build: (db: Db, ...params: P) => Compilable<R>,
) {
  const compiledFor = new WeakMap<Db, { compiled: ReturnType<Compilable<R>['compile']>; positions: number[] }>();

  function compile(db: Db) {
    const compiled = build(db, ...samples).compile();
    const positions = samples.map((sample) => {
      const at = compiled.parameters.indexOf(sample);
      if (at < 0 || compiled.parameters.lastIndexOf(sample) !== at) {
        throw new Error(`precompiled: ${String(sample)} is not exactly one bound parameter of ${compiled.sql}`);
      }
      return at;
    });
    const entry = { compiled, positions };
    compiledFor.set(db, entry);
    return entry;
  }

  return async function run(db: Db, ...params: P): Promise<R[]> {
    const { compiled, positions } = compiledFor.get(db) ?? compile(db);
    // Values the query binds itself (constants in `build`) stay; each param takes its sample's place.
    const parameters = [...compiled.parameters];
    for (let i = 0; i < params.length; i++) parameters[positions[i]!] = params[i];
    return (
      (readNow(db, compiled.sql, parameters) as R[] | undefined) ??
      (await db.executeQuery<R>({ ...compiled, parameters })).rows
    );
  };
}
