import { z } from 'zod';
import { formMessages } from './messages.js';

/**
 * The browser's form rules (docs/web-app.md, "Forms"): every field is `Required`, confirmations
 * `Must match`, and nothing more; length and strength rules are the server's to enforce.
 */
const required = () => z.string({ error: formMessages.required }).min(1, { error: formMessages.required });

/** Adds `Must match` on `confirm` when it differs from `original`. */
const mustMatch =
  <T extends Record<string, unknown>>(original: keyof T & string, confirm: keyof T & string) =>
  (value: T, ctx: z.RefinementCtx) => {
    if (value[confirm] !== value[original]) {
      ctx.addIssue({ code: 'custom', path: [confirm], message: formMessages.mustMatch });
    }
  };

export const loginForm = z.object({ email: required(), password: required() });

export const registrationForm = z
  .object({ email: required(), password1: required(), password2: required() })
  .superRefine(mustMatch('password1', 'password2'));

export const changePasswordForm = z
  .object({ old_password: required(), new_password: required(), confirm: required() })
  .superRefine(mustMatch('new_password', 'confirm'));

export const resetRequestForm = z.object({ email: required() });

export const resetConfirmForm = z
  .object({ password: required(), confirm: required() })
  .superRefine(mustMatch('password', 'confirm'));

/** A FileList from an `<input type="file" multiple>`, or an array of files. */
const someFiles = z.custom<ArrayLike<File>>(
  (value) =>
    value != null &&
    typeof (value as ArrayLike<unknown>).length === 'number' &&
    (value as ArrayLike<unknown>).length > 0,
  { error: formMessages.required },
);

export const addNewsForm = z.object({ title: required(), content: required(), files: someFiles });

/** Files chosen in a file input; none chosen is an empty list (or nothing at all). */
const optionalFiles = z.custom<ArrayLike<File> | undefined>(
  (value) => value == null || typeof (value as ArrayLike<unknown>).length === 'number',
);

/**
 * The author's edit form (docs/web-app.md, "Pages": `/news/{id}/edit`): the add form's rules, plus
 * ticking files to remove (`remove_files`, the ids as the checkboxes give them). Nothing may leave the
 * item without a file: removing every one of its `existingFiles` and adding none is refused on
 * `files` with the server's own words for it ("A news item must keep at least one file.").
 */
export const editNewsForm = (existingFiles: number) =>
  z
    .object({ title: required(), content: required(), files: optionalFiles, remove_files: z.array(z.string()) })
    .superRefine((value, ctx) => {
      const kept = existingFiles - new Set(value.remove_files).size + (value.files?.length ?? 0);
      if (kept < 1) ctx.addIssue({ code: 'custom', path: ['files'], message: formMessages.keepOneFile });
    });

export const profileForm = z.object({
  first_name: required(),
  last_name: required(),
  user_profile: z.object({ telephone: z.string(), mobile: z.string(), website: z.string() }),
});

export type LoginForm = z.infer<typeof loginForm>;
export type RegistrationForm = z.infer<typeof registrationForm>;
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
export type ResetRequestForm = z.infer<typeof resetRequestForm>;
export type ResetConfirmForm = z.infer<typeof resetConfirmForm>;
export type AddNewsForm = z.infer<typeof addNewsForm>;
export type EditNewsForm = z.infer<ReturnType<typeof editNewsForm>>;
export type ProfileForm = z.infer<typeof profileForm>;
