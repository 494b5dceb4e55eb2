import { useNavigate, useParams } from 'react-router';
import { appRoutes } from '@hello/contract';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { parseNewsId, useNewsItem } from '@/features/news/api/get-news-item';
import { AuthorActions, AuthorUnknown } from '@/features/news/components/author-actions';
import { NewsArticle } from '@/features/news/components/news-article';
import { LoadFailed } from '@/components/ui/load-failed';
import { NewsNotFound } from '@/features/news/components/news-states';
import { useFreshLinks } from '@/features/news/utils/fresh-links';
import { useCurrentUserEmail } from '@/lib/current-user';
import { sameEmail } from '@/lib/same-account';
import type { NoticeState } from '@/components/ui/route-notice';

function NewsItemPage({ id }: { id: number }) {
  const item = useNewsItem(id);
  const email = useCurrentUserEmail();
  const navigate = useNavigate();
  useFreshLinks(item.data?.files.map((file) => file.url) ?? [], item.reload);

  if (item.status === 'notfound')
    return (
      <Page title="News item not found">
        <NewsNotFound />
      </Page>
    );
  if (item.status === 'failed')
    return (
      <Page title="News item">
        <LoadFailed what="This news item" onRetry={item.reload} />
      </Page>
    );
  if (!item.data)
    return (
      <Page title="News item">
        <Loading />
      </Page>
    );

  const deleted = () => {
    const state: NoticeState = { notice: `“${item.data?.title}” was deleted.` };
    void navigate(appRoutes.news, { replace: true, state });
  };
  return (
    <Page title={item.data.title}>
      <NewsArticle
        item={item.data}
        actions={
          typeof email === 'object' && email ? (
            <AuthorUnknown onRetry={email.retry} />
          ) : (
            sameEmail(email, item.data.author) && <AuthorActions item={item.data} onDeleted={deleted} />
          )
        }
      />
    </Page>
  );
}

/** /news/{id}: one item (the router shows the 404 page for a malformed id). */
export default function NewsItemRoute() {
  const id = parseNewsId(useParams().id);
  return id === null ? null : <NewsItemPage key={id} id={id} />;
}
