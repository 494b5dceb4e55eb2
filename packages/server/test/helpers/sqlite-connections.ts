import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';

/**
 * Connections to one SQLite file in a fresh folder, opened as the server opens its own: what several
 * instances sharing a DATA_DIR hold. `close()` (in afterAll) closes them all and removes the folder.
 */
export function sqliteConnections(prefix: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const handles: DatabaseHandle[] = [];
  return {
    open() {
      const handle = openDatabase({ dataDir, databaseUrl: undefined });
      handles.push(handle);
      return handle.db;
    },
    async close() {
      for (const handle of handles) await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
