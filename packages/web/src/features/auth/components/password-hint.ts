import { passwordRules } from '@hello/contract';

/** What the server's password rules ask (the browser does not check them; the server answers). */
export const passwordHint = `At least ${passwordRules.minLength} characters, not only digits, not a common password.`;
