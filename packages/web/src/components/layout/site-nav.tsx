import { NavLink } from 'react-router';
import { navGroups } from '@/config/nav';

/** Links to every page, in groups; NavLink marks the current one with aria-current="page". */
export function SiteNav({ open }: { open: boolean }) {
  return (
    <nav id="site-nav" aria-label="Main" className={open ? 'site-nav open' : 'site-nav'}>
      {navGroups.map((group) => (
        <div key={group.title} className="nav-group">
          <p className="nav-title" id={`nav-${group.title}`}>
            {group.title}
          </p>
          <ul className="nav-list" aria-labelledby={`nav-${group.title}`}>
            {group.links.map((link) => (
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
