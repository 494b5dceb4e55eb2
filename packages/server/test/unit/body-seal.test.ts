import { describe, expect, it } from 'vitest';
import { createBodySeal } from '../../src/mail/body-seal.js';

describe('mail body seal', () => {
  const seal = createBodySeal('a'.repeat(48));
  const text = 'Reset: http://app.test/resetnewpassword?token=Zq3-secret_TOKEN';

  it('round-trips, and the sealed form shows nothing of the text', () => {
    const sealed = seal.seal(text);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain('token');
    expect(sealed).not.toContain('Zq3-secret_TOKEN');
    expect(seal.open(sealed)).toBe(text);
  });

  it('seals the same text differently each time (random IV)', () => {
    expect(seal.seal(text)).not.toBe(seal.seal(text));
  });

  it('refuses a body sealed under another key, a tampered body, and plain text', () => {
    const other = createBodySeal('b'.repeat(48)).seal(text);
    expect(() => seal.open(other)).toThrow();
    const sealed = seal.seal(text);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => seal.open(tampered)).toThrow();
    expect(() => seal.open(text)).toThrow();
  });
});
