import { formMessages } from '@hello/contract';
import { z } from 'zod';

/*
 * Two-step sign-in's form rules, in the style of the contract's forms.ts (every field `Required`,
 * nothing more: the server judges passwords and codes). They belong in packages/contract/src/forms.ts
 * beside the others; kept here until the contract has them.
 */
/**
 * docs/web-app.md, "Constants": how long the password step of a login with two-step sign-in stays
 * good for its code step (the server's `mfa_token` lifetime; the contract does not carry it yet).
 * Here rather than in config/: only the login's chunk needs it.
 */
export const MFA_TOKEN_LIFETIME_MS = 5 * 60_000;

const required = () => z.string({ error: formMessages.required }).min(1, { error: formMessages.required });

/** The login's code step, and the first code that turns two-step sign-in on. */
export const codeForm = z.object({ code: required() });
export const totpSetupForm = z.object({ password: required() });
export const totpDisableForm = z.object({ password: required(), code: required() });

export type CodeForm = z.infer<typeof codeForm>;
export type TotpDisableForm = z.infer<typeof totpDisableForm>;

/**
 * A code as sent: an authenticator app's code without the spaces people type into it ("123 456");
 * a recovery code as typed (the server ignores its case, spaces and dashes).
 */
export const codeToSend = (code: string, recovery: boolean): string =>
  recovery ? code.trim() : code.replace(/\s/g, '');

/**
 * The code field's message: `Required` only once something was typed or a submit tried. The field
 * takes focus as it appears, so leaving it empty (to press `Use a recovery code` or `Log in again`)
 * is no mistake to point out, and a message appearing under it then would move those buttons away
 * from the pointer between its press and its release.
 */
export function codeError(f: {
  form: { formState: { submitCount: number; dirtyFields: { code?: boolean } } };
  errorFor: (name: 'code') => string | undefined;
}): string | undefined {
  const { submitCount, dirtyFields } = f.form.formState;
  return submitCount > 0 || dirtyFields.code ? f.errorFor('code') : undefined;
}
