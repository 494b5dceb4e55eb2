import { registrationForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { register } from '../api/register';
import { passwordHint } from './password-hint';

export function RegistrationForm({ onSuccess }: { onSuccess: () => void }) {
  const f = useAppForm({
    schema: registrationForm,
    defaultValues: { email: '', password1: '', password2: '' },
    labels: { email: 'Email', password1: 'Password', password2: 'Password again' },
    onSubmit: async (values) => {
      await register(values);
      onSuccess();
    },
  });
  return (
    <FormFrame label="Register" form={f}>
      <InputField label="Email" type="email" autoComplete="email" error={f.errorFor('email')} {...f.register('email')} />
      <InputField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
        error={f.errorFor('password1')}
        // Re-check the confirmation whenever the password changes, so `Must match` never goes stale.
        {...f.register('password1', { deps: ['password2'] })}
      />
      <InputField
        label="Password again"
        type="password"
        autoComplete="new-password"
        error={f.errorFor('password2')}
        {...f.register('password2')}
      />
    </FormFrame>
  );
}
