import { formMessages } from '@hello/contract';
import { z } from 'zod';

/*
 * The account center's form rules, in the style of the contract's forms.ts (every field `Required`,
 * nothing more: the server judges the address and the password). They belong in
 * packages/contract/src/forms.ts beside the others; kept here until the contract has them.
 */
const required = () => z.string({ error: formMessages.required }).min(1, { error: formMessages.required });

export const changeEmailForm = z.object({ new_email: required(), password: required() });

/** `confirm` is the checkbox "I understand…": never sent, but the form cannot go without it. */
export const deleteAccountForm = z.object({
  password: required(),
  confirm: z.boolean().refine((ticked) => ticked, { error: formMessages.required }),
});

export type ChangeEmailForm = z.infer<typeof changeEmailForm>;
export type DeleteAccountForm = z.infer<typeof deleteAccountForm>;
