import { resetConfirmForm } from '@hello/contract';
import { FormFrame } from '@/components/ui/form/form-frame';
import { ApiError } from '@/lib/errors';
import { useAppForm } from '@/lib/use-app-form';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { NewPasswordFields } from './new-password-fields';

export interface ResetConfirmFormProps {
  token: string;
  onSuccess: () => void;
  /** The token was used up or expired while the form was open (the server answers 404). */
  onTokenInvalid: () => void;
}

export function ResetConfirmForm({ token, onSuccess, onTokenInvalid }: ResetConfirmFormProps) {
  const f = useAppForm({
    schema: resetConfirmForm,
    defaultValues: { password: '', confirm: '' },
    labels: { password: 'New password', confirm: 'Confirm new password' },
    onSubmit: async (values) => {
      try {
        await confirmPasswordReset({ ...values, token });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          console.error('The reset token was refused', error);
          onTokenInvalid();
          return;
        }
        throw error;
      }
      onSuccess();
    },
  });
  return (
    <FormFrame label="Choose a new password" form={f}>
      <NewPasswordFields
        form={f}
        password="password"
        confirm="confirm"
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
      />
    </FormFrame>
  );
}
