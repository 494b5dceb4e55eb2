import { useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { SessionsList } from '@/features/account/components/sessions-list';

/** /sessions: the devices signed in to the account; logging out this one is a logout (to the home page). */
export default function SessionsRoute() {
  const navigate = useNavigate();
  return (
    <Page
      title="Signed-in devices"
      intro="Every browser and device logged in to your account. Log out the ones you do not recognise."
    >
      <SessionsList onSignedOut={() => void navigate(appRoutes.home)} />
    </Page>
  );
}
