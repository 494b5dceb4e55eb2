// @ts-check
// Finds a Chromium to drive, never downloading one: CHROME_PATH, else the system's, else the
// binary that ships inside the @sparticuz/chromium npm package. No browser means a loud error,
// so a browser suite can never be skipped silently.
import { accessSync, constants } from 'node:fs';

/** @import { FoundChromium } from './chromium.js' */
/** @import { LaunchOptions, Browser } from 'playwright-core' */

export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Flags for a quiet headless browser on a closed network (it otherwise phones home at start). */
export function chromiumArgs() {
  return [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    '--headless',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
  ];
}

/** @param {string} file */
function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {{ systemPaths?: string[] }} [options] systemPaths: where to look for an installed browser
 * @returns {Promise<FoundChromium>}
 */
export async function findChromium({ systemPaths = SYSTEM_CHROMIUM_PATHS } = {}) {
  const args = chromiumArgs();
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROME_PATH=${fromEnv} is not an executable file`);
    return { executablePath: fromEnv, args, source: 'CHROME_PATH' };
  }
  const system = systemPaths.find(isExecutable);
  if (system) return { executablePath: system, args, source: 'system' };
  /** @type {unknown} */
  let cause;
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    const executablePath = await packaged.executablePath();
    if (isExecutable(executablePath)) return { executablePath, args, source: '@sparticuz/chromium' };
    cause = new Error(`${executablePath} is not executable`);
  } catch (error) {
    cause = error;
  }
  throw new Error(
    `No Chromium found: set CHROME_PATH, install one (apt-get install chromium), or install @sparticuz/chromium. Looked in ${systemPaths.join(', ')}; @sparticuz/chromium: ${cause instanceof Error ? cause.message : String(cause)}`,
    { cause },
  );
}

/**
 * findChromium() and launch it with playwright-core, headless.
 * @param {LaunchOptions} [options] merged over ours; `args` are appended to ours
 * @returns {Promise<Browser>}
 */
export async function launchChromium(options = {}) {
  const { chromium } = await import('playwright-core');
  const found = await findChromium();
  return chromium.launch({
    headless: true,
    ...options,
    executablePath: found.executablePath,
    args: [...found.args, ...(options.args ?? [])],
  });
}
