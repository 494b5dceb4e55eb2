import { describe, expect, it } from 'vitest';
import { mayHaveCommitted } from '../../src/db/database.js';

/** Which failed commits may have gone through all the same (storage/file-changes.ts settles their files later). */
describe('mayHaveCommitted', () => {
  it('is true when node-postgres stopped waiting or lost the connection', () => {
    expect(mayHaveCommitted(new Error('Query read timeout'))).toBe(true);
    expect(mayHaveCommitted(new Error('Connection terminated unexpectedly'))).toBe(true);
    // What Kysely throws instead: the ROLLBACK it tries after the COMMIT failed, on the lost connection.
    expect(mayHaveCommitted(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(mayHaveCommitted(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(mayHaveCommitted(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(mayHaveCommitted(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
  });

  it('is false for what the database refused or undid, for SQLite and for the change’s own refusals', () => {
    expect(mayHaveCommitted(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(mayHaveCommitted(Object.assign(new Error('could not serialize'), { code: '40001' }))).toBe(false);
    expect(mayHaveCommitted(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(mayHaveCommitted(new Error('A news item must keep at least one file.'))).toBe(false);
    expect(mayHaveCommitted(undefined)).toBe(false);
  });
});
