import type { ComponentProps } from 'react';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'quiet';
}

/** A native button (keyboard and screen-reader behaviour for free) with the app's look. */
export function Button({ variant = 'primary', type = 'button', className, ...props }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...props} />;
}
