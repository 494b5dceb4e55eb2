import { Page } from '@/components/ui/page';
import { RandomNews } from '@/features/news/components/random-news';

export default function LocalNewsRoute() {
  return (
    <Page title="Local news">
      <RandomNews />
    </Page>
  );
}
