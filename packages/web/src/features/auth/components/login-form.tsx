import { loginForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { login } from '../api/login';

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const f = useAppForm({
    schema: loginForm,
    defaultValues: { email: '', password: '' },
    labels: { email: 'Email', password: 'Password' },
    onSubmit: async (values) => {
      await login(values);
      onSuccess();
    },
  });
  return (
    <FormFrame label="Login" form={f}>
      <InputField
        label="Email"
        type="email"
        autoComplete="email"
        error={f.errorFor('email')}
        {...f.register('email')}
      />
      <InputField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('password')}
        {...f.register('password')}
      />
    </FormFrame>
  );
}
