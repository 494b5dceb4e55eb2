import { useState } from 'react';
import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Page } from '@/components/ui/page';
import { useAccountEmail } from '@/features/account/api/account-email';
import { ChangeEmailForm } from '@/features/account/components/change-email-form';

/** /changeemail: asks for a confirmation link to the new address; the change happens when it is opened. */
export default function ChangeEmailRoute() {
  const email = useAccountEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <Page
      title="Change e-mail address"
      intro={
        <>
          {email && (
            <>
              Your account&apos;s address is <strong>{email}</strong>.{' '}
            </>
          )}
          We will send a link to the new address; the change happens when you open it.
        </>
      }
    >
      {sentTo ? (
        <Alert tone="success" title={`Check your new address ${sentTo} for a confirmation link.`}>
          <p>Your e-mail address changes once you open that link. Until then, keep logging in with the current one.</p>
          <p>
            <Link to={appRoutes.userProfile}>Back to your profile</Link>
          </p>
        </Alert>
      ) : (
        <ChangeEmailForm onSent={setSentTo} />
      )}
    </Page>
  );
}
