import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { confirmEmail } from '@/features/account/api/confirm-email';
import { useAuth } from '@/lib/auth';

type Outcome = 'changed' | 'invalid' | 'failed';

/** /confirmemail?token=…: the e-mail change's link. Posts the token once, then says how it went. */
export default function ConfirmEmailRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { hasRefreshToken } = useAuth();
  // The answer for the token it was about: another token in the URL is pending again.
  const [answer, setAnswer] = useState<{ token: string; outcome: Outcome } | null>(null);
  const outcome: Outcome | 'pending' = !token ? 'invalid' : answer?.token === token ? answer.outcome : 'pending';

  useEffect(() => {
    if (!token) return;
    let active = true;
    confirmEmail(token).then(
      (changed) => active && setAnswer({ token, outcome: changed ? 'changed' : 'invalid' }),
      (error: unknown) => {
        console.error('Could not confirm the e-mail change', error);
        if (active) setAnswer({ token, outcome: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [token]);

  const next = hasRefreshToken ? (
    <Link to={appRoutes.userProfile}>Go to your profile</Link>
  ) : (
    <Link to={appRoutes.login}>Log in</Link>
  );
  return (
    <Page title="Confirm e-mail address">
      {outcome === 'pending' && <Loading label={texts.readingData} />}
      {outcome === 'changed' && (
        <Alert tone="success" title="Your e-mail address has been changed.">
          <p>From now on, log in with the new address.</p>
          <p>{next}</p>
        </Alert>
      )}
      {outcome === 'invalid' && (
        <Alert title={texts.tokenInvalid}>
          <p>
            The link may have expired or been used already. <Link to={appRoutes.changeEmail}>Ask for a new one</Link>.
          </p>
        </Alert>
      )}
      {outcome === 'failed' && (
        <Alert title="Your e-mail address could not be confirmed right now.">
          <p>The connection may have dropped, or the server had a problem. Open the link again in a moment.</p>
        </Alert>
      )}
    </Page>
  );
}
