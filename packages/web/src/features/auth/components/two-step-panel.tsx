import { useState } from 'react';
import type { TotpSetupResponse, TotpStatus } from '@hello/contract';
import { LoadFailed } from '@/components/ui/load-failed';
import { Loading } from '@/components/ui/loading';
import { useAuth } from '@/lib/auth';
import { useTwoStepStatus } from '../api/two-step';
import { RecoveryCodes } from './recovery-codes';
import { TwoStepDisableForm } from './two-step-disable-form';
import { TwoStepEnrol } from './two-step-enrol';
import { TwoStepSetupForm } from './two-step-setup-form';
import './two-step.css';

/** Where the page is beyond what the server says: scanning a new secret, or showing the new recovery codes. */
type Step = { kind: 'status' } | { kind: 'enrol'; setup: TotpSetupResponse } | { kind: 'codes'; codes: string[] };

const codesLeft = (n: number) => `${n} recovery code${n === 1 ? '' : 's'} left`;

/**
 * /twofactor: whether two-step sign-in is on (GET totp). Off: the password starts the set-up (a QR
 * code and the key), a first code turns it on and the ten recovery codes are shown once. On: the
 * recovery codes left, and the form that turns it off.
 */
export function TwoStepPanel() {
  const status = useTwoStepStatus();
  const { email } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'status' });
  const [message, setMessage] = useState('');

  if (step.kind === 'codes')
    return (
      <RecoveryCodes
        codes={step.codes}
        email={email}
        onDone={() => {
          setStep({ kind: 'status' });
          status.reload();
        }}
      />
    );
  const current = status.data;
  return (
    <div className="two-step">
      <p role="status" className="two-step-note">
        {message}
      </p>
      {status.status === 'failed' && <LoadFailed what="Whether two-step sign-in is on" onRetry={status.reload} />}
      {!current && status.status === 'loading' && <Loading />}
      {current && <StateLine status={current} />}
      {current?.enabled && (
        <>
          <h2>Turn off two-step sign-in</h2>
          <p className="muted">Enter your password and a code from your app, or one of your recovery codes.</p>
          <TwoStepDisableForm
            onDisabled={() => {
              setMessage('Two-step sign-in is now off.');
              status.reload();
            }}
          />
        </>
      )}
      {current && !current.enabled && step.kind === 'enrol' && (
        <TwoStepEnrol
          setup={step.setup}
          onConfirmed={(codes) => {
            setStep({ kind: 'codes', codes });
            setMessage('');
            status.reload();
          }}
          onCancel={() => setStep({ kind: 'status' })}
        />
      )}
      {current && !current.enabled && step.kind === 'status' && (
        <>
          <h2>Set up two-step sign-in</h2>
          <p className="muted">
            You will need an authenticator app on your phone. Enter your password to start; nothing changes until the
            app&rsquo;s first code turns it on.
          </p>
          <TwoStepSetupForm
            onStarted={(setup) => {
              setMessage('');
              setStep({ kind: 'enrol', setup });
            }}
          />
        </>
      )}
    </div>
  );
}

function StateLine({ status }: { status: TotpStatus }) {
  if (!status.enabled)
    return (
      <p className="two-step-state">
        Two-step sign-in is <strong>off</strong>: your password alone signs in to your account.
      </p>
    );
  return (
    <div className="two-step-state two-step-on">
      <p>
        Two-step sign-in is <strong>on</strong>: after your password, the login asks for a code from your app.
      </p>
      <p>{codesLeft(status.recovery_codes_left)}.</p>
      {status.recovery_codes_left === 0 && <p>Turn two-step sign-in off and on again to get ten new recovery codes.</p>}
    </div>
  );
}
