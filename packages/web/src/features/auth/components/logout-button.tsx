import { useState } from 'react';
import { useNavigate } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { Button } from '@/components/ui/button';

/** The one `Logout` button of a logout page; `logout` never rejects and always clears auth. */
export function LogoutButton({ logout }: { logout: () => Promise<void> }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    await logout();
    void navigate(appRoutes.home);
  };
  return (
    <Button onClick={() => void onClick()} disabled={busy} aria-busy={busy}>
      {texts.logout}
    </Button>
  );
}
