import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';
import { ExportButton, type SaveDownload } from './export-button';
import './account.css';

/** The profile page's way into the account center, and the export of everything the account holds. */
export function AccountLinks({ save }: { save: SaveDownload }) {
  return (
    <section className="account-links" aria-labelledby="account-links-title">
      <h2 id="account-links-title">Your account</h2>
      <ul>
        <li>
          <Link to={appRoutes.sessions}>Signed-in devices</Link>
        </li>
        <li>
          <Link to={appRoutes.changeEmail}>Change e-mail address</Link>
        </li>
        <li>
          <Link to={appRoutes.changePassword}>Change password</Link>
        </li>
        <li>
          <Link to={appRoutes.twoFactor}>Two-step sign-in</Link>
        </li>
        <li>
          <Link to={appRoutes.deleteAccount} className="account-danger-link">
            Delete account
          </Link>
        </li>
      </ul>
      <p className="muted">A copy of your profile, sessions and news items, as one JSON file:</p>
      <ExportButton save={save} />
    </section>
  );
}
