import { useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';

export default function ChangePasswordRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Change password" intro="Your other sessions will be signed out.">
      <ChangePasswordForm onSuccess={() => void navigate(appRoutes.localNews)} />
    </Page>
  );
}
