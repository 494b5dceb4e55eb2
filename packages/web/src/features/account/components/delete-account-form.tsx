import { fieldId, InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { deleteAccount } from '../api/delete-account';
import { deleteAccountForm } from '../utils/forms';
import './account.css';

export const DELETE_CONFIRMATION = 'I understand this deletes my account and all my news for good';

/**
 * The password and an explicit "I understand" checkbox: nothing is sent until both are given. On
 * success the account is gone and this browser has forgotten its tokens.
 */
export function DeleteAccountForm({ onDeleted }: { onDeleted: () => void }) {
  const f = useAppForm({
    schema: deleteAccountForm,
    defaultValues: { password: '', confirm: false },
    labels: { password: 'Current password', confirm: DELETE_CONFIRMATION },
    onSubmit: async ({ password }) => {
      await deleteAccount({ password });
      onDeleted();
    },
  });
  const id = fieldId('confirm');
  const confirmError = f.errorFor('confirm');
  return (
    <FormFrame label="Delete account" form={f}>
      <InputField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('password')}
        {...f.register('password')}
      />
      <div className={confirmError ? 'account-check field-invalid' : 'account-check'}>
        <input
          id={id}
          type="checkbox"
          aria-invalid={confirmError ? true : undefined}
          aria-describedby={confirmError ? `${id}-error` : undefined}
          aria-required
          {...f.register('confirm')}
        />
        <label htmlFor={id}>{DELETE_CONFIRMATION}</label>
        {confirmError && (
          <p id={`${id}-error`} className="field-error">
            {confirmError}
          </p>
        )}
      </div>
    </FormFrame>
  );
}
