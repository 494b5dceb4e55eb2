import { useState } from 'react';
import { loginForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { login } from '../api/login';
import { LoginCodeForm, type LoginCodeStep } from './login-code-form';

/**
 * E-mail and password; for an account with two-step sign-in the same page then asks for the code
 * (LoginCodeForm), and `Log in again` comes back here with the e-mail and password still filled in.
 */
export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const [codeStep, setCodeStep] = useState<LoginCodeStep | null>(null);
  const f = useAppForm({
    schema: loginForm,
    defaultValues: { email: '', password: '' },
    labels: { email: 'Email', password: 'Password' },
    onSubmit: async (values) => {
      const result = await login(values);
      if (result.status === 'code-needed') {
        setCodeStep({ mfaToken: result.mfaToken, email: values.email, issuedAt: Date.now() });
        return;
      }
      onSuccess();
    },
  });
  if (codeStep) return <LoginCodeForm step={codeStep} onSuccess={onSuccess} onRestart={() => setCodeStep(null)} />;
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
