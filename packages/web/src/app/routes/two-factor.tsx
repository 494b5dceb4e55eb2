import { Page } from '@/components/ui/page';
import { TwoStepPanel } from '@/features/auth/components/two-step-panel';

/** /twofactor: two-step sign-in of the account (docs/web-app.md, "Pages"); its own chunk, with the QR code's library. */
export default function TwoFactorRoute() {
  return (
    <Page
      title="Two-step sign-in"
      intro="After your password, the login also asks for a code from an app on your phone, so a stolen password alone is not enough."
    >
      <TwoStepPanel />
    </Page>
  );
}
