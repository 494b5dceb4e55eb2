import { texts } from '@hello/contract';

/** `Loading ...` (docs/web-app.md, "Pages"); role="status" lets assistive technology announce it politely. */
export function Loading({ label = texts.loading }: { label?: string }) {
  return (
    <p role="status" className="loading">
      <span className="loading-dot" aria-hidden="true" />
      {label}
    </p>
  );
}
