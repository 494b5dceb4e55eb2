import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { InputField } from '@/components/ui/form/field';
import { FormFrame } from '@/components/ui/form/form-frame';
import { useAppForm } from '@/lib/use-app-form';
import { disableTwoStep } from '../api/two-step';
import { codeError, codeToSend, totpDisableForm } from '../utils/two-step-forms';
import { CodeField } from './code-field';
import { onEscape } from '@/lib/on-escape';

/**
 * The password and a code (the app's, or a recovery code) turn two-step sign-in off, once the
 * question that Submit raises is answered `Yes, turn it off` (Cancel is focused first).
 */
export function TwoStepDisableForm({ onDisabled }: { onDisabled: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [asking, setAsking] = useState(false);
  /** True while `Yes, turn it off` submits: only then is the form sent. */
  const confirmed = useRef(false);
  const f = useAppForm({
    schema: totpDisableForm,
    defaultValues: { password: '', code: '' },
    labels: { password: 'Current password', code: recovery ? 'Recovery code' : 'Code' },
    onSubmit: async ({ password, code }) => {
      if (!confirmed.current) {
        setAsking(true);
        return;
      }
      try {
        await disableTwoStep({ password, code: codeToSend(code, recovery) });
      } finally {
        setAsking(false);
      }
      onDisabled();
    },
  });
  const cancel = useRef<HTMLButtonElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
  const questionBox = useRef<HTMLDivElement>(null);
  const asked = useRef(false);
  // Focus follows the question: onto Cancel when it appears, back onto Submit once it is gone. Submit
  // raises the question while the form is still submitting, when Cancel (and Submit) are disabled and
  // cannot take focus, so both moves wait for the submission to end.
  const { submitting } = f;
  useEffect(() => {
    if (submitting) return;
    if (asking) {
      // The question sits under the form's buttons, often below the fold: show all of it.
      questionBox.current?.scrollIntoView({ block: 'nearest' });
      cancel.current?.focus({ preventScroll: true });
      asked.current = true;
    } else if (asked.current) {
      asked.current = false;
      submitButton.current?.focus();
    }
  }, [asking, submitting]);

  const sendNow = async () => {
    confirmed.current = true;
    try {
      await f.submit();
    } finally {
      confirmed.current = false;
    }
  };
  const reset = () => {
    setAsking(false);
    f.reset();
  };
  const question = asking && (
    <div
      ref={questionBox}
      className="two-step-confirm"
      role="group"
      aria-labelledby="two-step-off-question"
      onKeyDown={onEscape(() => setAsking(false), !f.submitting)}
    >
      <p id="two-step-off-question">
        Turn off two-step sign-in? Your password alone will then sign in to your account, and your recovery codes stop
        working.
      </p>
      <div className="row">
        <Button className="two-step-danger" onClick={() => void sendNow()} disabled={f.submitting}>
          Yes, turn it off
        </Button>
        <Button ref={cancel} variant="secondary" onClick={() => setAsking(false)} disabled={f.submitting}>
          Cancel
        </Button>
      </div>
    </div>
  );
  return (
    <FormFrame label="Turn off two-step sign-in" form={{ ...f, reset }} footer={question} submitRef={submitButton}>
      <InputField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={f.errorFor('password')}
        {...f.register('password')}
      />
      <CodeField
        field={f.register('code')}
        error={codeError(f)}
        recovery={recovery}
        onToggle={() => {
          f.form.resetField('code');
          setRecovery((value) => !value);
        }}
        disabled={f.submitting}
      />
    </FormFrame>
  );
}
