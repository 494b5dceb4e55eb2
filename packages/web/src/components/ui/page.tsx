import type { ReactNode } from 'react';

/**
 * A page's heading and body; sets the document title so tabs and history read well. The heading is
 * the page's one h1, focusable by script: after a route change focus moves to it (app-layout.tsx).
 */
export function Page({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <title>{`${title} · Hello all!`}</title>
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {intro && <p className="page-intro">{intro}</p>}
      {children}
    </section>
  );
}
