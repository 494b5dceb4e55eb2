import { changePasswordForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { changePassword } from '../api/change-password';
import { NewPasswordFields } from './new-password-fields';

export function ChangePasswordForm({ onSuccess }: { onSuccess: () => void }) {
  const f = useAppForm({
    schema: changePasswordForm,
    defaultValues: { old_password: '', new_password: '', confirm: '' },
    labels: { old_password: 'Current password', new_password: 'New password', confirm: 'Confirm new password' },
    onSubmit: async (values) => {
      await changePassword(values);
      onSuccess();
    },
  });
  return (
    <FormFrame label="Change password" form={f}>
      <InputField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('old_password')}
        {...f.register('old_password')}
      />
      <NewPasswordFields
        form={f}
        password="new_password"
        confirm="confirm"
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
      />
    </FormFrame>
  );
}
