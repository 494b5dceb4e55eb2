import { registrationForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { register } from '../api/register';
import { NewPasswordFields } from './new-password-fields';

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
      <InputField
        label="Email"
        type="email"
        autoComplete="email"
        error={f.errorFor('email')}
        {...f.register('email')}
      />
      <NewPasswordFields
        form={f}
        password="password1"
        confirm="password2"
        labels={{ password: 'Password', confirm: 'Password again' }}
      />
    </FormFrame>
  );
}
