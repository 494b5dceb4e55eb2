import type { ReactElement } from 'react';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeXhr } from './fake-xhr';
import { deferred, jsonResponse, mockFetch, renderRoute, spyConsoleError, type FetchHandler } from './helpers';

export interface FormRulesCase {
  /** Renders the form (already inside a router). */
  render: () => ReactElement;
  /** Visible label → the control's name (its field's name on the wire), for every required text field. */
  required: Record<string, string>;
  /** Valid values by label, enough for a submission the browser accepts. */
  valid: Record<string, string>;
  /** A confirmation that must equal another field: both labels. */
  mustMatch?: { original: string; confirm: string };
  /** Waits until the form is on screen (forms that load data first). */
  ready?: () => Promise<unknown>;
  /** Answers calls made before submitting (e.g. loading the profile). */
  background?: FetchHandler;
  /** The path the submission goes to. */
  submitPath: string;
  /** A 400 answer and what must show beside which field. */
  serverError: { body: Record<string, unknown>; label: string; message: string };
  /** Uploads or other steps needed before the form can be submitted. */
  beforeSubmit?: (user: ReturnType<typeof renderRoute>['user']) => Promise<void>;
}

const submit = () => screen.getByRole('button', { name: 'Submit' });
const reset = () => screen.getByRole('button', { name: 'Reset' });

/** The rules of docs/web-app.md, "Forms", the same for every form. */
export function describeFormRules(name: string, c: FormRulesCase) {
  const start = async (handler: FetchHandler = () => jsonResponse(500)) => {
    const fetchMock = mockFetch((url, init) =>
      url === c.submitPath && init.method !== undefined && init.method !== 'GET'
        ? handler(url, init)
        : (c.background ?? (() => jsonResponse(404)))(url, init),
    );
    // Uploads go through XMLHttpRequest (for progress); route them to the same mock.
    installFakeXhr(async (url, init) => fetchMock(url, init));
    const rendered = renderRoute(c.render());
    await c.ready?.();
    return { ...rendered, fetchMock };
  };

  const fillValid = async (user: ReturnType<typeof renderRoute>['user']) => {
    for (const [label, value] of Object.entries(c.valid)) {
      const input = screen.getByLabelText(label);
      await user.clear(input);
      await user.type(input, value);
    }
    await c.beforeSubmit?.(user);
  };

  describe(`${name}: the forms' rules (docs/web-app.md)`, () => {
    it('names every control as its field on the wire, with a bound label', async () => {
      await start();
      for (const [label, controlName] of Object.entries(c.required)) {
        expect(screen.getByLabelText(label)).toHaveAttribute('name', controlName);
      }
    });

    it('shows Required only after a field is touched', async () => {
      const { user } = await start();
      const labels = Object.keys(c.required);
      const first = screen.getByLabelText(labels[0]!);
      // Typing and erasing makes the field invalid (validation runs on every change), but it
      // has not been left yet, so the error must stay hidden.
      await user.type(first, 'x');
      await user.clear(first);
      expect(first).toHaveFocus();
      expect(screen.queryByText('Required')).not.toBeInTheDocument();
      await user.tab();
      expect(first).toHaveAccessibleDescription(expect.stringContaining('Required'));
      for (const label of labels.slice(1)) {
        expect(screen.getByLabelText(label)).not.toHaveAccessibleDescription(expect.stringContaining('Required'));
      }
    });

    if (c.mustMatch) {
      const { original, confirm } = c.mustMatch;
      it('shows Must match when the confirmation differs, and clears it once they match', async () => {
        const { user } = await start();
        await user.type(screen.getByLabelText(original), 'first-Passw0rd');
        await user.type(screen.getByLabelText(confirm), 'other-Passw0rd');
        await user.tab();
        expect(screen.getByLabelText(confirm)).toHaveAccessibleDescription(expect.stringContaining('Must match'));
        await user.clear(screen.getByLabelText(original));
        await user.type(screen.getByLabelText(original), 'other-Passw0rd');
        expect(screen.queryByText('Must match')).not.toBeInTheDocument();
      });
    }

    it('disables Submit and Reset while unchanged and while submitting', async () => {
      const answer = deferred<Response>();
      const { user } = await start(() => answer.promise);
      expect(submit()).toHaveAttribute('aria-disabled', 'true');
      expect(reset()).toHaveAttribute('aria-disabled', 'true');
      await fillValid(user);
      expect(submit()).not.toHaveAttribute('aria-disabled');
      expect(reset()).not.toHaveAttribute('aria-disabled');
      await user.click(submit());
      expect(submit()).toHaveAttribute('aria-disabled', 'true');
      expect(reset()).toHaveAttribute('aria-disabled', 'true');
      spyConsoleError();
      answer.resolve(jsonResponse(500, { detail: 'boom' }));
      await screen.findByRole('alert');
      expect(submit()).not.toHaveAttribute('aria-disabled');
    });

    it('shows the server 400 messages beside their fields and in one alert, and logs the failure', async () => {
      const consoleError = spyConsoleError();
      const { user } = await start(() => jsonResponse(400, c.serverError.body));
      await fillValid(user);
      await user.click(submit());
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText(new RegExp(escape(c.serverError.message)))).toBeInTheDocument();
      expect(screen.getByLabelText(c.serverError.label)).toHaveAccessibleDescription(
        expect.stringContaining(c.serverError.message),
      );
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      expect(consoleError).toHaveBeenCalled();
    });
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
