import { Page } from '@/components/ui/page';
import { RouteNotice } from '@/components/ui/route-notice';
import { NewsList } from '@/features/news/components/news-list';

export default function NewsRoute() {
  return (
    <Page title="All news" intro="Every item, newest first.">
      <RouteNotice />
      <NewsList />
    </Page>
  );
}
