import type { Page } from '@playwright/test';
import { generate } from 'otplib';

const STEP_SECONDS = 30;

/**
 * An authenticator app for a secret read from the page: RFC 6238 codes (otplib, as the server).
 * The server takes a code once, and only for a time step later than the last one it took (±1 step
 * around now), so each code is for the step after the previous one; when that step is more than
 * one ahead of now, it waits until it is one ahead.
 */
export class Authenticator {
  private lastStep = -Infinity;

  constructor(readonly secret: string) {}

  async nextCode(page: Page): Promise<string> {
    const now = Date.now() / 1000;
    const step = Math.max(Math.floor(now / STEP_SECONDS), this.lastStep + 1);
    const startOfPrevious = (step - 1) * STEP_SECONDS;
    if (now < startOfPrevious) {
      // Half a second past the boundary, so the server's clock is there too.
      await page.waitForTimeout((startOfPrevious - now) * 1000 + 500);
    }
    this.lastStep = step;
    return generate({ secret: this.secret, epoch: step * STEP_SECONDS });
  }
}
