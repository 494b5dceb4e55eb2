import { Page } from '@/components/ui/page';
import { RouteNotice } from '@/components/ui/route-notice';
import { RandomNews } from '@/features/news/components/random-news';

export default function LocalNewsRoute() {
  return (
    <Page title="Local news">
      <RouteNotice />
      <RandomNews />
    </Page>
  );
}
