import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { newsItemRoute } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Loading } from '@/components/ui/loading';
import { Page } from '@/components/ui/page';
import { parseNewsId, useNewsItem } from '@/features/news/api/get-news-item';
import { EditNewsForm } from '@/features/news/components/edit-news-form';
import { LoadFailed } from '@/components/ui/load-failed';
import { NewsNotFound } from '@/features/news/components/news-states';
import { openedFromItemPage } from '@/features/news/utils/edit-history';
import { useCurrentUserEmail } from '@/lib/current-user';
import { sameEmail } from '@/lib/same-account';

const title = 'Edit news item';

function EditNewsPage({ id }: { id: number }) {
  const item = useNewsItem(id);
  const answer = useCurrentUserEmail();
  const lookupFailed = typeof answer === 'object' ? answer : null;
  const current = typeof answer === 'object' && answer ? undefined : answer;
  // A token stored by another tab makes the e-mail be asked again: the last one known stands
  // meanwhile (and if that lookup fails), so the form stays with what is typed in it, unless the
  // answer names someone else.
  const [known, setKnown] = useState(current);
  if (current !== undefined && current !== known) setKnown(current);
  const email = current === undefined ? known : current;
  const navigate = useNavigate();
  const fromItem = openedFromItemPage(useLocation().state);
  // Saved and on the way to the item: going back is asynchronous, and the form, enabled again once
  // sent, must not be sent twice meanwhile.
  const [saved, setSaved] = useState(false);

  if (item.status === 'notfound')
    return (
      <Page title="News item not found">
        <NewsNotFound />
      </Page>
    );
  if (item.status === 'failed')
    return (
      <Page title={title}>
        <LoadFailed what="This news item" onRetry={item.reload} />
      </Page>
    );
  // Not knowing who is signed in is no verdict on who may edit.
  if (lookupFailed && !email)
    return (
      <Page title={title}>
        <LoadFailed what="Your profile" onRetry={lookupFailed.retry} />
      </Page>
    );
  if (!item.data || email === undefined || saved)
    return (
      <Page title={title}>
        <Loading />
      </Page>
    );

  if (!sameEmail(email, item.data.author)) {
    return (
      <Page title={title}>
        <Alert tone="info" title="Only the author can edit this item.">
          <p>
            <Link to={newsItemRoute(id)}>Back to “{item.data.title}”</Link>
          </p>
        </Alert>
      </Page>
    );
  }
  return (
    <Page title={title} intro={<Link to={newsItemRoute(id)}>{item.data.title}</Link>}>
      {/* Saved: back to the item's page the form was opened from, else to the item in the form's place.
          Back then never shows the form sent (nor, after a delete, one for an item that is gone), and
          never the same item twice. */}
      <EditNewsForm
        item={item.data}
        onSaved={() => {
          setSaved(true);
          void (fromItem ? navigate(-1) : navigate(newsItemRoute(id), { replace: true }));
        }}
      />
    </Page>
  );
}

/** /news/{id}/edit: the author's edit form (the router shows the 404 page for a malformed id). */
export default function EditNewsRoute() {
  const id = parseNewsId(useParams().id);
  return id === null ? null : <EditNewsPage key={id} id={id} />;
}
