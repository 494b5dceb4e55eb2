// `npm run lint:openapi` (part of the root `npm run lint`): builds the app in-process on a throwaway
// DATA_DIR (no server listens), writes its OpenAPI document (what GET /api/openapi.json answers) to a
// temporary file and lints it with Redocly CLI under the repository's redocly.yaml. Exits with
// Redocly's status. Run by tsx from the server's sources; the contract is built first (its package
// exports dist/), as in a fresh clone it is not yet.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const root = path.resolve(import.meta.dirname, '../../..');
const temp = mkdtempSync(path.join(tmpdir(), 'hello-openapi-'));
let status: number;
try {
  const app = await buildApp(loadConfig({ DATA_DIR: path.join(temp, 'data'), LOG_LEVEL: 'silent' }));
  await app.ready();
  const file = path.join(temp, 'openapi.json');
  writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
  await app.close();

  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const result = spawnSync(
    process.execPath,
    [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'stylish'],
    {
      stdio: 'inherit',
      // No usage data sent (redocly.yaml says so too) and no look-up of newer versions: nothing leaves the machine.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  status = result.status ?? 1;
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exit(status);
