import { describe, expect, it } from 'vitest';
import { testDialects } from '../global-setup.js';

/** TEST_DIALECTS, as the run's global setup reads it (test/global-setup.ts). */
describe('TEST_DIALECTS', () => {
  it('defaults to both databases, unset or empty', () => {
    expect(testDialects({})).toEqual(['sqlite', 'postgres']);
    expect(testDialects({ TEST_DIALECTS: '' })).toEqual(['sqlite', 'postgres']);
    expect(testDialects({ TEST_DIALECTS: '  ' })).toEqual(['sqlite', 'postgres']);
    expect(testDialects({ CI: 'true' })).toEqual(['sqlite', 'postgres']);
  });

  it('takes a list of known names, spaces around them ignored, each once', () => {
    expect(testDialects({ TEST_DIALECTS: 'sqlite' })).toEqual(['sqlite']);
    expect(testDialects({ TEST_DIALECTS: 'postgres' })).toEqual(['postgres']);
    expect(testDialects({ TEST_DIALECTS: ' postgres , sqlite ' })).toEqual(['postgres', 'sqlite']);
    expect(testDialects({ TEST_DIALECTS: 'sqlite,sqlite' })).toEqual(['sqlite']);
  });

  it.each([
    ['a misspelt name', 'sqlite,postgress', '"postgress"'],
    ['another database', 'mysql', '"mysql"'],
    ['another letter case', 'SQLite', '"SQLite"'],
    ['an empty entry', 'sqlite,', '""'],
  ])('refuses %s, naming it and the names it expects', (_what, value, named) => {
    expect(() => testDialects({ TEST_DIALECTS: value })).toThrow(
      `TEST_DIALECTS=${JSON.stringify(value)} names ${named}: expected a comma-separated list of sqlite, postgres (unset: both)`,
    );
  });

  it('refuses to leave PostgreSQL out when CI is set', () => {
    for (const CI of ['true', '1', 'yes']) {
      expect(() => testDialects({ CI, TEST_DIALECTS: 'sqlite' })).toThrow(
        `TEST_DIALECTS="sqlite" leaves PostgreSQL out, but CI is set (CI=${JSON.stringify(CI)})`,
      );
    }
    expect(testDialects({ CI: 'true', TEST_DIALECTS: 'postgres,sqlite' })).toEqual(['postgres', 'sqlite']);
    // CI unset, empty, 0 or false: a quick local loop on SQLite is fine.
    for (const CI of [undefined, '', '0', 'false', 'FALSE'])
      expect(testDialects({ CI, TEST_DIALECTS: 'sqlite' })).toEqual(['sqlite']);
  });
});
