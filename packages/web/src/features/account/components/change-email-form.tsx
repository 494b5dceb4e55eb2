import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { changeEmail } from '../api/change-email';
import { changeEmailForm } from '../utils/forms';

/** New address and current password; `onSent` gets the address the confirmation link went to. */
export function ChangeEmailForm({ onSent }: { onSent: (newEmail: string) => void }) {
  const f = useAppForm({
    schema: changeEmailForm,
    defaultValues: { new_email: '', password: '' },
    labels: { new_email: 'New e-mail address', password: 'Current password' },
    onSubmit: async (values) => {
      await changeEmail(values);
      onSent(values.new_email);
    },
  });
  return (
    <FormFrame label="Change e-mail address" form={f}>
      <InputField
        label="New e-mail address"
        type="email"
        autoComplete="email"
        error={f.errorFor('new_email')}
        {...f.register('new_email')}
      />
      <InputField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('password')}
        {...f.register('password')}
      />
    </FormFrame>
  );
}
