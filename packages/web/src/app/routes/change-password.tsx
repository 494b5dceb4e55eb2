import { useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import type { NoticeState } from '@/components/ui/route-notice';
import { SignInFirst } from '@/features/auth/components/sign-in-first';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';

export default function ChangePasswordRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Change password" intro="Your other sessions will be signed out.">
      <SignInFirst toDo="change your password" />
      <ChangePasswordForm
        onSuccess={() => {
          const state: NoticeState = { notice: 'Your password was changed. Your other devices were logged out.' };
          void navigate(appRoutes.localNews, { state });
        }}
      />
    </Page>
  );
}
