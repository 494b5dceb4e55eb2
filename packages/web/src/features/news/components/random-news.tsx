import { useMemo } from 'react';
import { Link } from 'react-router';
import { appRoutes, newsItemRoute, texts, type NewsItem } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { formatBytes } from '@/utils/format';
import { useNews } from '../api/get-news';
import './news.css';

/** docs/web-app.md, "Constants": the item shown is chosen at random from the list. */
export function pickRandom<T>(items: readonly T[], random: () => number = Math.random): T | undefined {
  return items.length ? items[Math.floor(random() * items.length)] : undefined;
}

function NewsCard({ item, total, newest }: { item: NewsItem; total: number; newest: boolean }) {
  return (
    <article className="news-card" aria-labelledby="news-title">
      <p className="news-kicker">
        One of {newest ? 'the newest ' : ''}
        {total} {total === 1 ? 'item' : 'items'}, picked at random
      </p>
      <h2 id="news-title" className="news-title">
        <Link to={newsItemRoute(item.id)}>{item.title}</Link>
      </h2>
      {item.files.length > 0 && (
        <ul className="news-files" aria-label="Attachments">
          {item.files.map((file) => (
            <li key={file.id}>
              <a href={file.url} download={file.name}>
                {file.name}
              </a>
              <span className="muted"> · {formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

export function RandomNews() {
  const news = useNews();
  // Pick again only when a new list arrives, not on every render.
  const item = useMemo(() => pickRandom(news.items), [news.items]);
  return (
    <div className="stack">
      {news.status === 'loading' && <Loading />}
      {news.status === 'ready' && item && <NewsCard item={item} total={news.items.length} newest={news.hasOlder} />}
      {news.status === 'ready' && !item && (
        <p className="muted">
          No news yet. <Link to={appRoutes.addLocalNews}>Add the first item</Link>.
        </p>
      )}
      <div className="row news-links">
        <Button variant="secondary" onClick={news.reload} disabled={news.status === 'loading'}>
          {texts.refreshThisPage}
        </Button>
        <Link to={appRoutes.news}>All news</Link>
        <Link to={appRoutes.changePassword}>Change password</Link>
      </div>
    </div>
  );
}
