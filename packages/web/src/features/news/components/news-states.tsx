import { Link } from 'react-router';
import { appRoutes } from '@hello/contract';

/** The text of an item page whose item the server does not have. */
export function NewsNotFound() {
  return (
    <>
      <p>This news item does not exist (or was deleted).</p>
      <p>
        <Link to={appRoutes.news}>See all news</Link>
      </p>
    </>
  );
}
