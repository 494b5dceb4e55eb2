import { describe, expect, it } from 'vitest';
import { passwordProblems } from '../../src/auth/password-rules.js';
import { quickRatio, valueTooShortToCompare } from '../../src/auth/similarity.js';

const email = 'margaretha.vandenberg@example.com';
const tooSimilar = 'The password is too similar to the email address.';

describe('quickRatio (Python difflib.SequenceMatcher.quick_ratio)', () => {
  it('matches the values Python computes', () => {
    // Reference values from CPython 3: SequenceMatcher(a=..., b=...).quick_ratio()
    expect(quickRatio('vandenberg', email)).toBeCloseTo(0.46511627906976744, 12);
    expect(quickRatio('margaretha1', 'margaretha')).toBeCloseTo(0.9523809523809523, 12);
    expect(quickRatio('johndoe!!', 'john.doe')).toBeCloseTo(0.8235294117647058, 12);
    expect(quickRatio('abc', 'xyz')).toBe(0);
    expect(quickRatio('', '')).toBe(1);
  });

  it('does not compare values far shorter than the password (Django’s length-ratio shortcut)', () => {
    expect(valueTooShortToCompare('a-very-long-passphrase-indeed-yes', 'com', 0.7)).toBe(true);
    expect(valueTooShortToCompare('short', 'com', 0.7)).toBe(false);
  });
});

describe('passwordProblems', () => {
  it('accepts a good password', () => {
    expect(passwordProblems('Tall-Trees-Whisper-42', { email })).toEqual([]);
  });

  it('refuses short, common and numeric passwords, all messages at once, in Django’s order', () => {
    expect(passwordProblems('1234567', { email })).toEqual([
      'This password is too short. It must contain at least 8 characters.',
      'This password is too common.',
      'This password is entirely numeric.',
    ]);
    expect(passwordProblems('98124375310', { email })).toEqual(['This password is entirely numeric.']);
  });

  it('matches the common list regardless of letter case and surrounding spaces', () => {
    for (const pw of ['password', 'PassWord', ' qwertyuiop ', 'iloveyou', 'sunshine1']) {
      expect(passwordProblems(pw, { email }), pw).toContain('This password is too common.');
    }
  });

  it('counts characters, not UTF-16 units, for the length rule', () => {
    expect(passwordProblems('🌲🌲🌲🌲🌲🌲🌲', { email })).toContain(
      'This password is too short. It must contain at least 8 characters.',
    );
  });

  it('refuses passwords too similar to the e-mail, its local part or its parts', () => {
    expect(passwordProblems('Vandenberg', { email })).toContain(tooSimilar); // a part
    expect(passwordProblems('margaretha.vandenberg', { email })).toContain(tooSimilar); // the local part
    expect(passwordProblems(email.toUpperCase(), { email })).toContain(tooSimilar); // the whole address
    expect(passwordProblems('Margaretha1', { email })).toContain(tooSimilar);
    expect(passwordProblems('Tall-Trees-Whisper-42', { email: 'tree@example.com' })).not.toContain(tooSimilar);
  });
});
