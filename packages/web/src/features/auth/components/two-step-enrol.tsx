import { useEffect, useState } from 'react';
import type { TotpSetupResponse } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { confirmTwoStep } from '../api/two-step';
import { codeError, codeForm, codeToSend } from '../utils/two-step-forms';
import { QrCode } from './qr-code';

/** The base32 secret in groups of four, as authenticator apps show keys to type by hand. */
export const groupSecret = (secret: string): string => secret.match(/.{1,4}/g)?.join(' ') ?? '';

/**
 * The set-up's second half: the QR code of `otpauth_url` (or the secret, to type), then the app's
 * first code turns two-step sign-in on and `onConfirmed` gets the ten recovery codes.
 */
export function TwoStepEnrol(props: {
  setup: TotpSetupResponse;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const { setup, onConfirmed, onCancel } = props;
  const [copied, setCopied] = useState('');
  const f = useAppForm({
    schema: codeForm,
    defaultValues: { code: '' },
    labels: { code: 'Code from your authenticator app' },
    onSubmit: async ({ code }) => onConfirmed(await confirmTwoStep(codeToSend(code, false))),
  });
  const { setFocus } = f.form;
  useEffect(() => setFocus('code'), [setFocus]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(setup.secret);
      setCopied('Key copied.');
    } catch (error) {
      console.error('Could not copy the key', error);
      setCopied('Could not copy: select the key and copy it yourself.');
    }
  };

  return (
    <div className="two-step-enrol">
      <h2>1. Add your account to an authenticator app</h2>
      <p className="muted">
        Scan this code with an app such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis.
      </p>
      <QrCode text={setup.otpauth_url} label="QR code to scan with your authenticator app" />
      <p className="muted">Cannot scan it? Type this key into the app instead (time-based):</p>
      <div className="totp-secret-row">
        <code className="totp-secret">{groupSecret(setup.secret)}</code>
        <Button variant="secondary" onClick={() => void copy()}>
          Copy key
        </Button>
      </div>
      <p role="status" className="two-step-note">
        {copied}
      </p>
      <h2>2. Turn it on with the app&rsquo;s code</h2>
      <FormFrame label="Turn on two-step sign-in" form={f}>
        <InputField
          label="Code from your authenticator app"
          hint="The 6-digit code the app now shows for this account."
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          error={codeError(f)}
          {...f.register('code')}
        />
      </FormFrame>
      <p className="form-links">
        <Button variant="secondary" onClick={onCancel} disabled={f.submitting}>
          Cancel set-up
        </Button>
      </p>
    </div>
  );
}
