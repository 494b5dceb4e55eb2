import { useState, type ComponentProps } from 'react';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: 'primary' | 'secondary' | 'quiet';
}

/**
 * A native button (keyboard and screen-reader behaviour for free) with the app's look.
 *
 * A button disabled while it has focus keeps it (docs/web-app.md, "Accessibility"): the Submit,
 * Reset, Refresh or Delete just pressed is disabled while its work runs, and a natively disabled
 * button drops focus to the page's `<body>`, where a keyboard or screen-reader user loses their
 * place. So while focused it is disabled by `aria-disabled` alone and ignores presses (a submit
 * button's too); once focus leaves it, it is natively disabled again, out of the tab order.
 */
export function Button(props: ButtonProps) {
  const { variant = 'primary', type = 'button', className, disabled, onClick, onFocus, onBlur, ...rest } = props;
  const [focused, setFocused] = useState(false);
  const classes = ['btn', `btn-${variant}`, className].filter(Boolean).join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled && !focused}
      aria-disabled={disabled || undefined}
      onFocus={(event) => {
        setFocused(true);
        onFocus?.(event);
      }}
      onBlur={(event) => {
        setFocused(false);
        onBlur?.(event);
      }}
      onClick={(event) => {
        if (disabled)
          event.preventDefault(); // no click handler, and no form submission
        else onClick?.(event);
      }}
      {...rest}
    />
  );
}
