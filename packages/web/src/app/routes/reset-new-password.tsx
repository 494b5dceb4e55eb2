import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import type { NoticeState } from '@/components/ui/route-notice';
import { validateResetToken } from '@/features/auth/api/validate-reset-token';
import { ResetConfirmForm } from '@/features/auth/components/reset-confirm-form';

type TokenState = 'pending' | 'valid' | 'invalid' | 'failed';

/**
 * docs/web-app.md, "Pages": the token check is pending, then valid (form) or invalid (message); a
 * check that did not reach the server (network, 5xx) is no answer about the token: it says so, with Retry.
 */
export default function ResetNewPasswordRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // The answer for the token it was about: a new token in the URL is pending again.
  const [checked, setChecked] = useState<{ token: string; state: TokenState } | null>(null);
  const state: TokenState = !token ? 'invalid' : checked?.token === token ? checked.state : 'pending';
  const setState = (next: TokenState) => setChecked({ token, state: next });
  // Raised by Retry: the token is checked again.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    let active = true;
    validateResetToken(token).then(
      (valid) => active && setChecked({ token, state: valid ? 'valid' : 'invalid' }),
      (error: unknown) => {
        console.error('Could not check the reset token', error);
        if (active) setChecked({ token, state: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt]);

  return (
    <Page title="Choose a new password">
      {state === 'pending' && <Loading label={texts.readingData} />}
      {state === 'invalid' && (
        <Alert title={texts.tokenInvalid}>
          <p>
            The link may have expired or been used already.{' '}
            <Link to={appRoutes.resetPasswordRequest}>Request a new one</Link>.
          </p>
        </Alert>
      )}
      {state === 'failed' && (
        <Alert title="The link could not be checked right now.">
          <p>The server could not be reached, or it had a problem.</p>
          <Button
            onClick={() => {
              setChecked(null);
              setAttempt((n) => n + 1);
            }}
          >
            Retry
          </Button>
        </Alert>
      )}
      {state === 'valid' && (
        <ResetConfirmForm
          token={token}
          onSuccess={() => {
            const state: NoticeState = { notice: 'Your password was reset. Log in with the new one.' };
            void navigate(appRoutes.login, { state });
          }}
          onTokenInvalid={() => setState('invalid')}
        />
      )}
    </Page>
  );
}
