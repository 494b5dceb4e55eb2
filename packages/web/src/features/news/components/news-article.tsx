import type { ReactNode } from 'react';
import type { NewsFile, NewsItem } from '@hello/contract';
import { formatBytes, formatDateTime } from '@/utils/format';
import { NewsContent } from './news-content';
import './news.css';

/** Types every browser draws in an <img>; anything else (SVG included) is only a download. */
export const isPreviewable = (file: Pick<NewsFile, 'content_type'>) =>
  /^image\/(png|jpeg|gif|webp)$/i.test(file.content_type);

function Attachment({ file }: { file: NewsFile }) {
  return (
    <li className="news-attachment">
      {isPreviewable(file) && (
        // The signed link needs no Authorization header; the browser scales the picture (news.css).
        <img className="news-preview" src={file.url} loading="lazy" alt={file.name} />
      )}
      <span className="news-attachment-line">
        <a href={file.url} download={file.name}>
          {file.name}
        </a>
        <span className="muted"> · {formatBytes(file.size)}</span>
      </span>
    </li>
  );
}

/** One item's body under its title (the page heading): who and when, the text, the attachments. */
export function NewsArticle({ item, actions }: { item: NewsItem; actions?: ReactNode }) {
  return (
    <article className="news-article" aria-labelledby="page-title">
      <p className="news-meta">
        By <span className="news-author">{item.author}</span>
        <span aria-hidden="true"> · </span>
        <time dateTime={item.created_at}>{formatDateTime(item.created_at)}</time>
      </p>
      {actions}
      <NewsContent content={item.content} />
      {item.files.length > 0 && (
        <section className="news-attachments" aria-labelledby="news-attachments-title">
          <h2 id="news-attachments-title">Attachments</h2>
          <ul>
            {item.files.map((file) => (
              <Attachment key={file.id} file={file} />
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
