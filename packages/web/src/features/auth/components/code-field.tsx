import type { UseFormRegisterReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form/field';
import './two-step.css';

export interface CodeFieldProps {
  /** `register('code')` of the form. */
  field: UseFormRegisterReturn<'code'>;
  error: string | undefined;
  /** A recovery code rather than the authenticator app's code. */
  recovery: boolean;
  onToggle: () => void;
  disabled?: boolean;
}

/**
 * The code of two-step sign-in: the authenticator app's 6 digits (the phone's number pad, the
 * browser's one-time-code autofill), or, after `Use a recovery code`, one of the saved recovery codes
 * as text. The field's wire name is `code` either way.
 */
export function CodeField({ field, error, recovery, onToggle, disabled }: CodeFieldProps) {
  return (
    <div className="code-field">
      {recovery ? (
        <InputField
          key="recovery"
          label="Recovery code"
          hint="One of the ten recovery codes you saved, like abcde-fghij. Each works once."
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          error={error}
          {...field}
        />
      ) : (
        <InputField
          key="app"
          label="Code from your authenticator app"
          hint="The 6-digit code the app shows for this account now."
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          error={error}
          {...field}
        />
      )}
      <Button variant="secondary" className="code-field-toggle" onClick={onToggle} disabled={disabled}>
        {recovery ? 'Use the code from your app' : 'Use a recovery code'}
      </Button>
    </div>
  );
}
