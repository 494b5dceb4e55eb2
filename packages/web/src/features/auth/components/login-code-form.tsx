import { useEffect, useRef, useState } from 'react';
import { errorCodes } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormFrame } from '@/components/ui/form/form-frame';
import { ApiError } from '@/lib/errors';
import { describeSubmissionError } from '@/lib/form-errors';
import { useAppForm } from '@/lib/use-app-form';
import { submitLoginCode } from '../api/login-code';
import { codeError, codeForm, codeToSend, MFA_TOKEN_LIFETIME_MS } from '../utils/two-step-forms';
import { CodeField } from './code-field';

export interface LoginCodeStep {
  mfaToken: string;
  email: string;
  /** When the password step answered (Date.now()): its `mfa_token` lives 5 minutes from then. */
  issuedAt: number;
}

const isMfaInvalid = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 401 &&
  (error.body as { code?: unknown } | null)?.code === errorCodes.mfaInvalid;

/**
 * The login's second step for an account with two-step sign-in: the authenticator app's code, or a
 * recovery code. A refused code is the server's 401 `mfa_invalid`, shown as it says; once the
 * password step is over 5 minutes old the code form gives way to `Log in again` (`onRestart`).
 */
export function LoginCodeForm(props: { step: LoginCodeStep; onSuccess: () => void; onRestart: () => void }) {
  const { step, onSuccess, onRestart } = props;
  const [recovery, setRecovery] = useState(false);
  const [refused, setRefused] = useState(false);
  const [expired, setExpired] = useState<string | null>(null);
  const f = useAppForm({
    schema: codeForm,
    defaultValues: { code: '' },
    labels: { code: recovery ? 'Recovery code' : 'Code' },
    onSubmit: async ({ code }) => {
      try {
        await submitLoginCode({ mfa_token: step.mfaToken, code: codeToSend(code, recovery) }, step.email);
      } catch (error) {
        if (isMfaInvalid(error)) {
          setRefused(true);
          // The same 401 answers a wrong code and a stale token; the clock tells them apart here.
          if (Date.now() - step.issuedAt >= MFA_TOKEN_LIFETIME_MS)
            setExpired(describeSubmissionError(error).general.join(' '));
        }
        throw error;
      }
      onSuccess();
    },
  });
  const { setFocus } = f.form;
  useEffect(() => setFocus('code'), [setFocus, recovery]);
  const restart = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (expired) restart.current?.focus();
  }, [expired]);

  if (expired)
    return (
      <Alert tone="info" title="The sign-in took too long.">
        <p>{expired}</p>
        <p>For your safety the code must follow the password within 5 minutes.</p>
        <Button ref={restart} onClick={onRestart}>
          Log in again
        </Button>
      </Alert>
    );
  return (
    <div className="code-step">
      <h2>Two-step sign-in</h2>
      <p className="muted">
        Your password is right. Now enter the code for <strong>{step.email}</strong> from your authenticator app.
      </p>
      <FormFrame label="Two-step sign-in code" form={f}>
        <CodeField
          field={f.register('code')}
          error={codeError(f)}
          recovery={recovery}
          onToggle={() => {
            f.reset();
            setRecovery((value) => !value);
          }}
          disabled={f.submitting}
        />
      </FormFrame>
      <p className="form-links code-step-restart">
        {refused
          ? 'If more than 5 minutes have passed since you entered your password, start again.'
          : 'Not your account?'}{' '}
        <Button variant="secondary" onClick={onRestart}>
          Log in again
        </Button>
      </p>
    </div>
  );
}
