import { Link, useLocation } from 'react-router';
import { Alert } from './alert';

/** Router state a page leaves for the page it goes to next: what was just done there. */
export interface NoticeState {
  notice?: string;
  /** A way on from the notice (the item just posted). */
  link?: { to: string; label: string };
}

/** The notice the page before left in the router's state (a success), if any; nothing otherwise. */
export function RouteNotice() {
  const { notice, link } = (useLocation().state ?? {}) as NoticeState;
  if (!notice) return null;
  return (
    <Alert tone="success">
      <p>
        {notice}
        {link && (
          <>
            {' '}
            <Link to={link.to}>{link.label}</Link>
          </>
        )}
      </p>
    </Alert>
  );
}
