import { Link, useNavigate } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Page } from '@/components/ui/page';
import { RegistrationForm } from '@/features/auth/components/registration-form';

export default function RegisterRoute() {
  const navigate = useNavigate();
  return (
    <Page title="Register" intro="Create an account with your e-mail address.">
      <RegistrationForm onSuccess={() => void navigate(appRoutes.localNews)} />
      <p className="form-links">
        Already registered? <Link to={appRoutes.login}>Log in</Link>
      </p>
    </Page>
  );
}
