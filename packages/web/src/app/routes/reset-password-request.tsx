import { useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { ResetRequestForm } from '@/features/auth/components/reset-request-form';

export default function ResetPasswordRequestRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Reset password" intro="We will e-mail you a link to choose a new password.">
      <ResetRequestForm onSuccess={() => void navigate(appRoutes.resetPasswordRequestConfirmed)} />
    </Page>
  );
}
