import { describe, expect, it } from 'vitest';
import { lostInFlight } from '../../src/db/database.js';

/** Which failures lost a query in flight: a COMMIT failed so may have gone through all the same (storage/file-changes.ts settles its files later). */
describe('lostInFlight', () => {
  it('is true when node-postgres stopped waiting or lost the connection', () => {
    expect(lostInFlight(new Error('Query read timeout'))).toBe(true);
    expect(lostInFlight(new Error('Connection terminated unexpectedly'))).toBe(true);
    // What Kysely throws instead: the ROLLBACK it tries after the COMMIT failed, on the lost connection.
    expect(lostInFlight(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(lostInFlight(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(lostInFlight(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(lostInFlight(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
  });

  it('is false for what the database refused or undid, for SQLite and for the change’s own refusals', () => {
    expect(lostInFlight(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(lostInFlight(Object.assign(new Error('could not serialize'), { code: '40001' }))).toBe(false);
    expect(lostInFlight(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBe(false);
    expect(lostInFlight(new Error('A news item must keep at least one file.'))).toBe(false);
    expect(lostInFlight(undefined)).toBe(false);
  });
});
