import { Page } from '@/components/ui/page';
import { logoutJwt } from '@/features/auth/api/logout-jwt';
import { LogoutButton } from '@/features/auth/components/logout-button';

export default function LogoutJwtRoute() {
  return (
    <Page title="Log out" intro="Ends this session (JWT style).">
      <LogoutButton logout={logoutJwt} />
    </Page>
  );
}
