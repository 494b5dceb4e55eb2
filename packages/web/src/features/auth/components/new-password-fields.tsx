import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { passwordRules } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';

/** What the server's password rules ask (the browser does not check them; the server answers). */
const passwordHint = `At least ${passwordRules.minLength} characters, not only digits, not a common password.`;

interface NewPasswordFieldsProps<T extends FieldValues> {
  /** The form's `register` and `errorFor` (from useAppForm). */
  form: { register: UseFormRegister<T>; errorFor: (name: Path<T>) => string | undefined };
  password: Path<T>;
  confirm: Path<T>;
  labels: { password: string; confirm: string };
}

/**
 * A new password and its confirmation, as registration, password change and reset all ask for them:
 * the browser's new-password autofill, the server's rules as a hint, and the confirmation checked
 * again whenever the password changes, so `Must match` never goes stale.
 */
export function NewPasswordFields<T extends FieldValues>({
  form,
  password,
  confirm,
  labels,
}: NewPasswordFieldsProps<T>) {
  return (
    <>
      <InputField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
        error={form.errorFor(password)}
        {...form.register(password, { deps: [confirm] })}
      />
      <InputField
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        error={form.errorFor(confirm)}
        {...form.register(confirm)}
      />
    </>
  );
}
