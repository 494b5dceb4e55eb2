import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router';
import { appRoutes, newsItemRoute, texts, type NewsItem } from '@hello/contract';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { formatDateTime } from '@/utils/format';
import { useNewsPages } from '../api/get-news-page';
import { LoadFailed } from '@/components/ui/load-failed';
import './news.css';

const fileCount = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
const itemCount = (n: number) => `${n} ${n === 1 ? 'item' : 'items'}`;

function NewsRow({ item }: { item: NewsItem }) {
  return (
    <li className="news-row">
      <h2 className="news-row-title">
        <Link to={newsItemRoute(item.id)} data-news-id={item.id}>
          {item.title}
        </Link>
      </h2>
      <p className="news-meta">
        <span className="news-author">{item.author}</span>
        <span aria-hidden="true"> · </span>
        <time dateTime={item.created_at}>{formatDateTime(item.created_at)}</time>
        <span aria-hidden="true"> · </span>
        <span>{fileCount(item.files.length)}</span>
      </p>
    </li>
  );
}

/** Every item, newest first; `Older items` appends the next page under the ones shown. */
export function NewsList() {
  const news = useNewsPages();
  const list = useRef<HTMLOListElement>(null);

  // Keyboard and screen-reader users continue where the new items begin (the button they pressed
  // is gone on the last page); the appended titles are read out as focus lands on the first one.
  const firstAdded = news.addedFrom === null ? undefined : news.items[news.addedFrom]?.id;
  // In the commit that adds them, before use-focus-rescue.ts would send focus to the h1.
  useLayoutEffect(() => {
    if (firstAdded === undefined) return;
    list.current?.querySelector<HTMLElement>(`[data-news-id="${firstAdded}"]`)?.focus();
  }, [firstAdded]);

  if (news.status === 'loading') return <Loading />;
  if (news.status !== 'ready') return <LoadFailed what="The news" onRetry={news.reload} />;
  if (news.items.length === 0) {
    return (
      <p className="news-empty">
        No news yet. <Link to={appRoutes.addLocalNews}>Add the first item</Link>.
      </p>
    );
  }
  const loadingOlder = news.older === 'loading';
  return (
    <div className="stack">
      <ol className="news-list" ref={list} aria-label="News, newest first">
        {news.items.map((item) => (
          <NewsRow key={item.id} item={item} />
        ))}
      </ol>
      <div className="row">
        {news.hasOlder && (
          <Button variant="secondary" onClick={news.loadOlder} disabled={news.older === 'loading'}>
            Older items
          </Button>
        )}
        {/* One live region, there before `Loading ...` is put in it (one inserted with its text may go
            unannounced); it looks as <Loading /> then, and as the count otherwise. */}
        <p role="status" className={loadingOlder ? 'loading' : 'muted news-count'}>
          {loadingOlder ? (
            <>
              <span className="loading-dot" aria-hidden="true" />
              {texts.loading}
            </>
          ) : news.hasOlder ? (
            `The newest ${itemCount(news.items.length)}`
          ) : (
            `${itemCount(news.items.length)} in all`
          )}
        </p>
      </div>
      {/* Under the button, which keeps focus: above it, the alert would push it out of view. */}
      {news.older === 'failed' && (
        <Alert title="Older items could not be loaded.">
          <p>Check your connection, then try again.</p>
        </Alert>
      )}
    </div>
  );
}
