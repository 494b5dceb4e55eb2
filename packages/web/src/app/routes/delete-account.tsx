import { useState } from 'react';
import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Page } from '@/components/ui/page';
import { useAccountEmail } from '@/features/account/api/account-email';
import { DeleteAccountForm } from '@/features/account/components/delete-account-form';

/**
 * /deleteaccount: the password and an explicit "I understand", then the account is gone and this
 * browser signed out; the page then says so in place (there is no account left to show a page of).
 */
export default function DeleteAccountRoute() {
  const [deleted, setDeleted] = useState(false);
  if (deleted)
    return (
      <Page title="Account deleted">
        <Alert tone="success" title="Your account has been deleted.">
          <p>
            Your profile, sessions, news items and their files are gone, and this browser is signed out. The address can
            be used to register again.
          </p>
          <p>
            <Link to={appRoutes.home}>Home</Link> · <Link to={appRoutes.register}>Register</Link>
          </p>
        </Alert>
      </Page>
    );
  return <DeleteAccountPage onDeleted={() => setDeleted(true)} />;
}

function DeleteAccountPage({ onDeleted }: { onDeleted: () => void }) {
  const email = useAccountEmail();
  return (
    <Page
      title="Delete account"
      intro={
        <>
          This deletes {email ? <strong>{email}</strong> : 'your account'} with its profile, sessions and every news
          item you posted, with their files. It cannot be undone.{' '}
          <Link to={appRoutes.userProfile}>Export your data</Link> first if you want a copy.
        </>
      }
    >
      <DeleteAccountForm onDeleted={onDeleted} />
    </Page>
  );
}
