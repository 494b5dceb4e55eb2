import { Page } from '@/components/ui/page';
import { logoutToken } from '@/features/auth/api/logout-token';
import { LogoutButton } from '@/features/auth/components/logout-button';

export default function LogoutTokenRoute() {
  return (
    <Page title="Log out" intro="Ends this session (token style).">
      <LogoutButton logout={logoutToken} />
    </Page>
  );
}
