import type { ComponentProps, ReactNode } from 'react';

/** A DOM id from a field name; dots (user_profile.telephone) are legal but awkward in selectors. */
export const fieldId = (name: string) => `field-${name.replace(/[^\w-]/g, '-')}`;

interface ShellProps {
  id: string;
  label: string;
  error: string | undefined;
  hint: string | undefined;
  children: (describedBy: string | undefined) => ReactNode;
}

/** Label above, control, then hint and error, all tied to the control for screen readers. */
function FieldShell({ id, label, error, hint, children }: ShellProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(describedBy)}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type FieldProps<E extends 'input' | 'textarea'> = ComponentProps<E> & {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  /** Marked for assistive technology only: the `required` attribute would start the browser's
   * own validation bubbles, and the messages of docs/web-app.md, "Forms" are ours to show. */
  optional?: boolean;
};

export function InputField({ label, error, hint, optional, id, ...input }: FieldProps<'input'>) {
  const controlId = id ?? fieldId(input.name);
  return (
    <FieldShell id={controlId} label={label} error={error} hint={hint}>
      {(describedBy) => (
        <input
          id={controlId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={optional ? undefined : true}
          {...input}
        />
      )}
    </FieldShell>
  );
}

export function TextareaField({ label, error, hint, optional, id, ...textarea }: FieldProps<'textarea'>) {
  const controlId = id ?? fieldId(textarea.name);
  return (
    <FieldShell id={controlId} label={label} error={error} hint={hint}>
      {(describedBy) => (
        <textarea
          id={controlId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          aria-required={optional ? undefined : true}
          rows={5}
          {...textarea}
        />
      )}
    </FieldShell>
  );
}
