import { createRequire } from 'node:module';
import { passwordRules, serverMessages } from '@hello/contract';
import { quickRatio, valueTooShortToCompare } from './similarity.js';

const require = createRequire(import.meta.url);

/** Django's default for UserAttributeSimilarityValidator. */
const MAX_SIMILARITY = 0.7;

let commonPasswords: Set<string> | undefined;
/**
 * ~49,000 common passwords (zxcvbn-ts's list, MIT), lower-cased. Loaded and built on first use:
 * the package decompresses its lists as it loads, a cost a server start need not pay.
 */
function isCommon(password: string): boolean {
  commonPasswords ??= new Set(
    (require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common')).dictionary[
      'passwords-common'
    ].map((p) => p.toLowerCase()),
  );
  return commonPasswords.has(password.trim().toLowerCase());
}

/**
 * Is the password too similar to the e-mail? As Django checks it: the whole address, and each of its
 * parts split on non-word characters; we add the local part (`john.doe` of `john.doe@example.com`),
 * the piece people most often build passwords from.
 */
function tooSimilarToEmail(password: string, email: string): boolean {
  const pw = password.toLowerCase();
  const value = email.trim().toLowerCase();
  if (!value) return false;
  const localPart = value.includes('@') ? value.slice(0, value.lastIndexOf('@')) : '';
  const parts = new Set([...value.split(/[^\p{L}\p{N}_]+/u), localPart, value]);
  for (const part of parts) {
    if (!part || valueTooShortToCompare(pw, part, MAX_SIMILARITY)) continue;
    if (quickRatio(pw, part) >= MAX_SIMILARITY) return true;
  }
  return false;
}

/**
 * The contract's password rules with Django's validator messages, in Django's default order.
 * Every rule that fails is reported, so the user fixes them all in one go. Empty means acceptable.
 */
export function passwordProblems(password: string, user: { email: string }): string[] {
  const problems: string[] = [];
  if (tooSimilarToEmail(password, user.email)) problems.push(serverMessages.passwordTooSimilar('email address'));
  if ([...password].length < passwordRules.minLength)
    problems.push(serverMessages.passwordTooShort(passwordRules.minLength));
  if (isCommon(password)) problems.push(serverMessages.passwordTooCommon);
  if (/^\p{Nd}+$/u.test(password)) problems.push(serverMessages.passwordEntirelyNumeric);
  return problems;
}
