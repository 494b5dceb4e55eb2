import { changePasswordForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { changePassword } from '../api/change-password';
import { passwordHint } from './password-hint';

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
      <InputField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
        error={f.errorFor('new_password')}
        {...f.register('new_password', { deps: ['confirm'] })}
      />
      <InputField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={f.errorFor('confirm')}
        {...f.register('confirm')}
      />
    </FormFrame>
  );
}
