import type { Browser, LaunchOptions } from 'playwright-core';

export interface FoundChromium {
  executablePath: string;
  /** --no-sandbox (as root), --headless, --disable-gpu, and the flags that stop it reaching the network. */
  args: string[];
  source: 'CHROME_PATH' | 'system' | '@sparticuz/chromium';
}

/** /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome. */
export declare const SYSTEM_CHROMIUM_PATHS: string[];

/** The flags findChromium returns. */
export declare function chromiumArgs(): string[];

/**
 * CHROME_PATH, else the first executable of systemPaths, else @sparticuz/chromium's binary
 * (extracted to the temp dir). Never downloads. Throws when none is found.
 */
export declare function findChromium(options?: { systemPaths?: string[] }): Promise<FoundChromium>;

/** Launches findChromium()'s browser headless with playwright-core; `options.args` are added to ours. */
export declare function launchChromium(options?: LaunchOptions): Promise<Browser>;
