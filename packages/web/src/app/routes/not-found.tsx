import { Link } from 'react-router';
import { appRoutes, texts } from '@hello/contract';
import { Page } from '@/components/ui/page';

/** Any path outside the route table (docs/web-app.md, "Pages"); the server answers it with status 404 too. */
export default function NotFoundRoute() {
  return (
    <Page title={texts.notFound}>
      <p>
        <Link to={appRoutes.home}>Go to the home page</Link>
      </p>
    </Page>
  );
}
