import { texts } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Page } from '@/components/ui/page';

export default function ResetPasswordRequestConfirmedRoute() {
  return (
    <Page title="Check your e-mail">
      <Alert tone="success">
        <p>{texts.resetRequestSent}</p>
      </Alert>
    </Page>
  );
}
