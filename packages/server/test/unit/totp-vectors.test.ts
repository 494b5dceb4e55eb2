import { generate, stringToBytes } from 'otplib';
import { describe, expect, it } from 'vitest';

/**
 * RFC 6238, appendix B: the SHA-1 test vectors (the ASCII secret "12345678901234567890", 8 digits),
 * through the library and the settings two-step sign-in uses (auth/two-step.ts: SHA-1, 30-second
 * steps). Its 6-digit codes are the last six digits of these.
 */
describe('TOTP (RFC 6238 test vectors)', () => {
  const secret = stringToBytes('12345678901234567890');
  const vectors: [epoch: number, code: string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  it.each(vectors)('at %i s the code is %s', async (epoch, code) => {
    expect(await generate({ secret, epoch, digits: 8, algorithm: 'sha1', period: 30 })).toBe(code);
    expect(await generate({ secret, epoch })).toBe(code.slice(2));
  });
});
