import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { RouteNotice } from '@/components/ui/route-notice';
import { DEFAULT_AFTER_LOGIN } from '@/config/constants';
import { LoginForm } from '@/features/auth/components/login-form';
import { safeNextPath, type LoginState } from '@/lib/auth-redirect';

/** After logging in, return to the page that sent the user here, or to /localnews. */
export default function LoginRoute() {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const from = safeNextPath((location.state as LoginState | null)?.from) ?? safeNextPath(params.get('next'));
  return (
    <Page title="Login" intro={from ? 'Please log in to continue.' : 'Welcome back.'}>
      <RouteNotice />
      <LoginForm onSuccess={() => void navigate(from ?? DEFAULT_AFTER_LOGIN, { replace: true })} />
      <p className="form-links">
        New here? <Link to={appRoutes.register}>Create an account</Link> ·{' '}
        <Link to={appRoutes.resetPasswordRequest}>Forgot your password?</Link>
      </p>
    </Page>
  );
}
