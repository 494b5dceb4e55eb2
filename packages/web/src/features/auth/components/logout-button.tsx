import { useNavigate } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { Button } from '@/components/ui/button';

/** The one `Logout` button of a logout page; `logout` signs this browser out at once (features/auth/api). */
export function LogoutButton({ logout }: { logout: () => void }) {
  const navigate = useNavigate();
  const onClick = () => {
    logout();
    void navigate(appRoutes.home);
  };
  return <Button onClick={onClick}>{texts.logout}</Button>;
}
