import { useLocation } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Page } from '@/components/ui/page';
import { NewsList } from '@/features/news/components/news-list';

/** Router state a page leaves for /news, e.g. after deleting an item. */
export interface NewsRouteState {
  notice?: string;
}

export default function NewsRoute() {
  const { notice } = (useLocation().state ?? {}) as NewsRouteState;
  return (
    <Page title="All news" intro="Every item, newest first.">
      {notice && <Alert tone="success">{notice}</Alert>}
      <NewsList />
    </Page>
  );
}
