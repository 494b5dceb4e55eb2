import { NavLink } from 'react-router';
import { navGroups } from '@/config/nav';
import { useAuth } from '@/lib/auth';

/**
 * Links to the pages, in groups; NavLink marks the current one with aria-current="page". Account
 * links follow the session (config/nav.ts, `when`): Login, Register and Reset password only while
 * signed out, the account's pages only while signed in (each page still answers at its address).
 */
export function SiteNav({ open }: { open: boolean }) {
  const hidden = useAuth().hasRefreshToken ? 'signedOut' : 'signedIn';
  return (
    <nav id="site-nav" aria-label="Main" className={open ? 'site-nav open' : 'site-nav'}>
      {navGroups.map((group) => (
        <div key={group.title} className="nav-group">
          <p className="nav-title" id={`nav-${group.title}`}>
            {group.title}
          </p>
          <ul className="nav-list" aria-labelledby={`nav-${group.title}`}>
            {group.links
              .filter((link) => link.when !== hidden)
              .map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} end>
                    {link.label}
                  </NavLink>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
