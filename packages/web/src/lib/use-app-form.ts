import { useState } from 'react';
import { get, useForm, useWatch, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { AuthLostError } from './errors';
import { describeSubmissionError } from './form-errors';

export interface AppFormOptions<TIn extends FieldValues, TOut> {
  /** One of the contract's form schemas: the rules are shared, never redefined here. */
  schema: z.ZodType<TOut, TIn>;
  defaultValues: DefaultValues<TIn>;
  /** Visible label per field name: names the field in the form-level alert. */
  labels: Record<string, string>;
  /** Sends the values; a thrown error becomes the server messages shown in the form. */
  onSubmit: (values: TOut) => Promise<void>;
}

/**
 * react-hook-form configured to behave like the Formik prototype (docs/web-app.md, "Forms"):
 * the whole form is validated on every change and blur, but an error is only shown once its field
 * has been touched (blurred) or a submit was attempted, which counts as touching every field.
 */
export function useAppForm<TIn extends FieldValues, TOut>(options: AppFormOptions<TIn, TOut>) {
  const form = useForm<TIn, unknown, TOut>({
    resolver: zodResolver(options.schema),
    defaultValues: options.defaultValues,
    mode: 'all',
  });
  const [alert, setAlert] = useState<string[]>([]);
  const { errors, touchedFields, submitCount, isSubmitting } = form.formState;
  // Our own "changed" test rather than isDirty: react-hook-form reads an untouched file input as an
  // empty FileList, unlike its default, so isDirty stayed true once any change was taken back.
  const values = useWatch({ control: form.control });
  const changed = !sameAsDefault(values, form.formState.defaultValues);

  const submit = form.handleSubmit(async (values) => {
    setAlert([]);
    try {
      await options.onSubmit(values);
    } catch (error) {
      // The user has been sent to /login already; there is nothing to say on this form.
      if (error instanceof AuthLostError) return;
      console.error('The form submission failed', error);
      const { fields, general } = describeSubmissionError(error);
      const lines = [...general];
      for (const [name, messages] of Object.entries(fields)) {
        const label = options.labels[name];
        if (label) form.setError(name as Path<TIn>, { type: 'server', message: messages.join(' ') });
        lines.push(...messages.map((message) => `${label ?? name}: ${message}`));
      }
      setAlert(lines);
    }
  });

  /** The message to show beside a field, or undefined while it should stay quiet. */
  const errorFor = (name: Path<TIn>): string | undefined => {
    const shown = submitCount > 0 || Boolean(get(touchedFields, name));
    const message = (get(errors, name) as { message?: unknown } | undefined)?.message;
    return shown && typeof message === 'string' ? message : undefined;
  };

  const reset = () => {
    setAlert([]);
    form.reset();
  };

  return {
    form,
    register: form.register,
    submit,
    reset,
    errorFor,
    /** Server messages for the form-level alert; empty when there is nothing to say. */
    alert,
    submitting: isSubmitting,
    /** Submit and Reset are enabled only for a changed form that is not being sent. */
    canAct: changed && !isSubmitting,
  };
}

const isList = (value: unknown): value is ArrayLike<unknown> =>
  Array.isArray(value) || (typeof FileList !== 'undefined' && value instanceof FileList);

/** True when the form's values equal its defaults; an empty file list equals no default. */
export function sameAsDefault(value: unknown, fallback: unknown): boolean {
  if (isList(value))
    return value.length === 0 ? fallback === undefined || (isList(fallback) && fallback.length === 0) : false;
  if (value !== null && typeof value === 'object') {
    const a = value as Record<string, unknown>;
    const b = (fallback ?? {}) as Record<string, unknown>;
    return Object.keys({ ...a, ...b }).every((key) => sameAsDefault(a[key], b[key]));
  }
  return value === fallback;
}
