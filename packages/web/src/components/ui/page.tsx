import type { ReactNode } from 'react';

/** A page's heading and body; sets the document title so tabs and history read well. */
export function Page({ title, intro, children }: { title: string; intro?: ReactNode; children?: ReactNode }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <title>{`${title} · Hello all!`}</title>
      <h2 id="page-title">{title}</h2>
      {intro && <p className="page-intro">{intro}</p>}
      {children}
    </section>
  );
}
