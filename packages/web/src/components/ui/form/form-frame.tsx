import { useLayoutEffect, useRef, type FormEventHandler, type ReactNode, type Ref } from 'react';
import { texts } from '@hello/contract';
import { Alert } from '../alert';
import { Button } from '../button';
import './form.css';

/** The parts of `useAppForm` the frame needs. */
export interface FormFrameState {
  submit: FormEventHandler<HTMLFormElement>;
  reset: () => void;
  /** Server messages of the last failed submission (docs/web-app.md, "Forms": one alert for the whole form). */
  alert: string[];
  submitting: boolean;
  canAct: boolean;
}

export interface FormFrameProps {
  /** Accessible name of the form. */
  label: string;
  form: FormFrameState;
  children: ReactNode;
  /** Shown under the buttons, e.g. an upload progress bar. */
  footer?: ReactNode;
  /** The Submit button, for a form that moves focus back onto it (e.g. when its question is cancelled). */
  submitRef?: Ref<HTMLButtonElement>;
}

/**
 * Every form's frame: the alert, the fields, and the `Submit` / `Reset` pair, both disabled while
 * the form is unchanged or being sent (docs/web-app.md, "Forms"). Native validation stays on because
 * those rules keep the e-mail input type's own format check.
 */
export function FormFrame(props: FormFrameProps) {
  const { label, form, children, footer, submitRef } = props;
  const { alert, submitting, canAct } = form;
  // The alert appears above the fields and pushes them down: the field or button that kept focus is
  // brought back into view, not left below the window's edge (docs/web-app.md, "Accessibility").
  const frame = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (alert.length > 0 && active instanceof HTMLElement && frame.current?.contains(active))
      active.scrollIntoView?.({ block: 'nearest' });
  }, [alert]);
  return (
    <form ref={frame} className="form" aria-label={label} aria-busy={submitting} onSubmit={form.submit}>
      {alert.length > 0 && (
        <Alert title="That did not work:">
          <ul>
            {alert.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Alert>
      )}
      {children}
      <div className="form-actions">
        <Button ref={submitRef} type="submit" disabled={!canAct}>
          {texts.submit}
        </Button>
        <Button variant="secondary" onClick={form.reset} disabled={!canAct}>
          {texts.reset}
        </Button>
        {/* Always there, empty when idle: a live region inserted with its text may go unannounced. */}
        <span role="status" className="form-status">
          {submitting ? 'Sending…' : ''}
        </span>
      </div>
      {footer}
    </form>
  );
}
