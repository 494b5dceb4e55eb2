import { apiPaths, serverMessages, type TotpStatus } from '@hello/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  deferred,
  headerOf,
  jsonResponse,
  mockFetch,
  renderRoute,
  signedIn,
  spyConsoleError,
} from '../../../../test/helpers';
import { TwoStepPanel } from './two-step-panel';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Hello%20all!:me%40example.com?secret=${SECRET}&issuer=Hello%20all!`;
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);

type Handler = () => Response;

/** A server whose two-step sign-in is `enabled`; POSTs answer as given (else success), and change the state. */
function fakeServer(initial: TotpStatus, answers: Partial<Record<string, Handler>> = {}) {
  let status = initial;
  return mockFetch((url, init) => {
    const method = init.method ?? 'GET';
    const answer = answers[url];
    if (url === apiPaths.totp && method === 'GET') return jsonResponse(200, status);
    if (answer) return answer();
    if (url === apiPaths.totpSetup) return jsonResponse(200, { secret: SECRET, otpauth_url: OTPAUTH });
    if (url === apiPaths.totpConfirm) {
      status = { enabled: true, recovery_codes_left: 10 };
      return jsonResponse(200, { recovery_codes: CODES });
    }
    if (url === apiPaths.totpDisable) {
      status = { enabled: false, recovery_codes_left: 0 };
      return jsonResponse(200, { status: 'OK' });
    }
    return jsonResponse(404, { detail: 'Not found.' });
  });
}

const off: TotpStatus = { enabled: false, recovery_codes_left: 0 };
const on: TotpStatus = { enabled: true, recovery_codes_left: 7 };
const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;
const submit = () => screen.getByRole('button', { name: 'Submit' });

/**
 * Clicks as a browser does for a person's click: there the promise callbacks of the submit handler run
 * while the click is still being dispatched (`window.event` is set), so React renders each state change
 * of the submission on its own, the question while the form is still submitting. Testing Library
 * dispatches from a script instead, and React would batch them all into one render.
 */
async function clickAsInABrowser(user: ReturnType<typeof renderRoute>['user'], button: HTMLElement) {
  const event = vi.spyOn(window, 'event', 'get').mockReturnValue(new Event('submit'));
  try {
    await user.click(button);
  } finally {
    event.mockRestore();
  }
}

async function startSetUp(user: ReturnType<typeof renderRoute>['user']) {
  await user.type(await screen.findByLabelText('Current password'), 'secret-pass');
  await user.click(submit());
  return screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
}

describe('two-step sign-in page', () => {
  let scrollIntoView: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    // jsdom has no layout, hence no scrollIntoView.
    scrollIntoView = vi.fn();
    Object.defineProperty(Element.prototype, 'scrollIntoView', { configurable: true, value: scrollIntoView });
    signedIn();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('says Loading ... then that it is off, with the password form that starts the set-up', async () => {
    const answer = deferred<Response>();
    const fetchMock = mockFetch(() => answer.promise);
    renderRoute(<TwoStepPanel />);
    expect(screen.getByText('Loading ...')).toBeInTheDocument();
    answer.resolve(jsonResponse(200, off));
    expect(await screen.findByText(/your password alone signs in/)).toHaveTextContent('Two-step sign-in is off');
    expect(headerOf(callsTo(fetchMock, apiPaths.totp)[0]?.[1], 'Authorization')).toBe('Bearer acc');
    expect(screen.getByRole('form', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('name', 'password');
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Reset' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows the server message beside the password when it is wrong', async () => {
    spyConsoleError();
    fakeServer(off, { [apiPaths.totpSetup]: () => jsonResponse(400, { password: [serverMessages.wrongPassword] }) });
    const { user } = renderRoute(<TwoStepPanel />);
    await user.type(await screen.findByLabelText('Current password'), 'wrong-pass');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(`Current password: ${serverMessages.wrongPassword}`);
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(serverMessages.wrongPassword);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('set-up draws the QR code in the page and shows the key in groups, with a copy button', async () => {
    const fetchMock = fakeServer(off);
    const { user } = renderRoute(<TwoStepPanel />);
    const qr = await startSetUp(user);
    expect(body(callsTo(fetchMock, apiPaths.totpSetup)[0]?.[1])).toEqual({ password: 'secret-pass' });
    // A QR code of a real size (21 + 4n modules, and the quiet zone of 4 each side), its top-left
    // finder pattern dark at its corner and light where it ends.
    const size = Number(qr.getAttribute('viewBox')?.split(' ')[2]) - 8;
    expect((size - 21) % 4).toBe(0);
    expect(size).toBeGreaterThanOrEqual(21);
    const path = qr.querySelector('path')?.getAttribute('d') ?? '';
    expect(path).toContain('M4 4h1v1h-1z');
    expect(path).toContain('M10 10h1v1h-1z');
    expect(path).not.toContain('M11 4h1v1h-1z');
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(await screen.findByText('Key copied.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(screen.getByLabelText('Code from your authenticator app')).toHaveAttribute('autocomplete', 'one-time-code');
  });

  it('turning on shows the ten recovery codes once, with Download, and says other devices were logged out', async () => {
    const fetchMock = fakeServer(off);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:codes');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user, unmount } = renderRoute(<TwoStepPanel />);
    await startSetUp(user);
    await user.type(screen.getByLabelText('Code from your authenticator app'), '123 456');
    await user.click(submit());
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(body(callsTo(fetchMock, apiPaths.totpConfirm)[0]?.[1])).toEqual({ code: '123456' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole('alert')).toHaveTextContent('Two-step sign-in is on.');
    expect(screen.getByText(/other device that was signed in to your account has been logged out/)).toBeInTheDocument();
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(click).toHaveBeenCalledTimes(1);
    const file = await createObjectURL.mock.calls[0]![0].text();
    for (const code of CODES) expect(file).toContain(`\n${code}\n`);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('recovery-codes.txt');

    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();

    // Coming back to the page: on, and the codes are not shown again.
    unmount();
    renderRoute(<TwoStepPanel />);
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();
  });

  it('shows a refused first code beside the code field, and Cancel goes back', async () => {
    spyConsoleError();
    fakeServer(off, { [apiPaths.totpConfirm]: () => jsonResponse(400, { code: [serverMessages.invalidCode] }) });
    const { user } = renderRoute(<TwoStepPanel />);
    await startSetUp(user);
    await user.type(screen.getByLabelText('Code from your authenticator app'), '000000');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.invalidCode);
    expect(screen.getByLabelText('Code from your authenticator app')).toHaveAccessibleDescription(
      expect.stringContaining(serverMessages.invalidCode) as string,
    );
    await user.click(screen.getByRole('button', { name: 'Cancel set-up' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
  });

  it('when on: the codes left and the form to turn it off, which asks first', async () => {
    const fetchMock = fakeServer(on);
    const { user } = renderRoute(<TwoStepPanel />);
    expect(await screen.findByText('7 recovery codes left.')).toBeInTheDocument();
    expect(screen.getByText(/Two-step sign-in is/)).toHaveTextContent('Two-step sign-in is on');
    await user.type(screen.getByLabelText('Current password'), 'secret-pass');
    await user.type(screen.getByLabelText('Code from your authenticator app'), '654 321');
    await clickAsInABrowser(user, submit());
    // Asked first: nothing sent, the question scrolled into view and Cancel focused.
    const question = await screen.findByRole('group', { name: /Turn off two-step sign-in\?/ });
    await waitFor(() => expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    expect(scrollIntoView.mock.contexts).toEqual([question]);
    expect(callsTo(fetchMock, apiPaths.totpDisable)).toHaveLength(0);
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /Turn off/ })).not.toBeInTheDocument();
    // Focus goes back onto Submit, not lost to the page.
    expect(submit()).toHaveFocus();
    expect(callsTo(fetchMock, apiPaths.totpDisable)).toHaveLength(0);

    await user.click(submit());
    await user.click(await screen.findByRole('button', { name: 'Yes, turn it off' }));
    expect(await screen.findByText('Two-step sign-in is now off.')).toBeInTheDocument();
    expect(body(callsTo(fetchMock, apiPaths.totpDisable)[0]?.[1])).toEqual({ password: 'secret-pass', code: '654321' });
    expect(headerOf(callsTo(fetchMock, apiPaths.totpDisable)[0]?.[1], 'Authorization')).toBe('Bearer acc');
    expect(await screen.findByRole('form', { name: 'Set up two-step sign-in' })).toBeInTheDocument();
  });

  it('sends a recovery code to turn it off, and shows the server field errors', async () => {
    spyConsoleError();
    const fetchMock = fakeServer(on, {
      [apiPaths.totpDisable]: () =>
        jsonResponse(400, { password: [serverMessages.wrongPassword], code: [serverMessages.invalidCode] }),
    });
    const { user } = renderRoute(<TwoStepPanel />);
    await user.type(await screen.findByLabelText('Current password'), 'wrong-pass');
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghij');
    await user.click(submit());
    await user.click(await screen.findByRole('button', { name: 'Yes, turn it off' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(`Current password: ${serverMessages.wrongPassword}`);
    expect(alert).toHaveTextContent(`Recovery code: ${serverMessages.invalidCode}`);
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(serverMessages.wrongPassword);
    expect(screen.getByLabelText('Recovery code')).toHaveAccessibleDescription(
      expect.stringContaining(serverMessages.invalidCode) as string,
    );
    expect(body(callsTo(fetchMock, apiPaths.totpDisable)[0]?.[1])).toEqual({
      password: 'wrong-pass',
      code: 'abcde-fghij',
    });
    expect(screen.queryByRole('group', { name: /Turn off/ })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('7 recovery codes left.')).toBeInTheDocument());
  });

  it('says when the status could not be loaded, and Retry loads it again', async () => {
    spyConsoleError();
    let fail = true;
    mockFetch(() => (fail ? jsonResponse(500) : jsonResponse(200, on)));
    const { user } = renderRoute(<TwoStepPanel />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('7 recovery codes left.')).toBeInTheDocument();
  });
});
