import { resetRequestForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { requestPasswordReset } from '../api/request-password-reset';

export function ResetRequestForm({ onSuccess }: { onSuccess: () => void }) {
  const f = useAppForm({
    schema: resetRequestForm,
    defaultValues: { email: '' },
    labels: { email: 'Email' },
    onSubmit: async ({ email }) => {
      await requestPasswordReset(email);
      onSuccess();
    },
  });
  return (
    <FormFrame label="Request a password reset" form={f}>
      <InputField
        label="Email"
        type="email"
        autoComplete="email"
        error={f.errorFor('email')}
        {...f.register('email')}
      />
    </FormFrame>
  );
}
