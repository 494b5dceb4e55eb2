import { resetConfirmForm } from '@hello/contract';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { ApiError } from '@/lib/errors';
import { useAppForm } from '@/lib/use-app-form';
import { confirmPasswordReset } from '../api/confirm-password-reset';
import { passwordHint } from './password-hint';

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
      <InputField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={passwordHint}
        error={f.errorFor('password')}
        {...f.register('password', { deps: ['confirm'] })}
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
