import { Fragment } from 'react';
import { linkify, toParagraphs } from '../utils/content';

/**
 * A news item's content as text, never as markup: paragraphs on blank lines, line breaks kept, and
 * http(s) web addresses as links that open in a new tab and pass on neither the page nor a ranking
 * (with their real target as a title where the text writes the host otherwise).
 */
export function NewsContent({ content }: { content: string }) {
  return (
    <div className="news-content">
      {toParagraphs(content).map((lines, p) => (
        <p key={p}>
          {lines.map((line, l) => (
            <Fragment key={l}>
              {l > 0 && <br />}
              {linkify(line).map((piece, i) =>
                piece.href === undefined ? (
                  <Fragment key={i}>{piece.text}</Fragment>
                ) : (
                  <a key={i} href={piece.href} title={piece.title} target="_blank" rel="noopener noreferrer nofollow">
                    {piece.text}
                  </a>
                ),
              )}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}
