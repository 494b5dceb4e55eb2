import type { ReactNode } from 'react';

export interface AlertProps {
  tone?: 'error' | 'info' | 'success';
  title?: string;
  children: ReactNode;
}

/** role="alert": screen readers announce it as soon as it appears. */
export function Alert({ tone = 'error', title, children }: AlertProps) {
  return (
    <div role="alert" className={`alert alert-${tone}`}>
      {title && <p className="alert-title">{title}</p>}
      {children}
    </div>
  );
}
