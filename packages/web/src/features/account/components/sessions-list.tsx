import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { SessionInfo } from '@hello/contract';
import { Button } from '@/components/ui/button';
import { LoadFailed } from '@/components/ui/load-failed';
import { Loading } from '@/components/ui/loading';
import { ApiError, AuthLostError } from '@/lib/errors';
import { describeSubmissionError } from '@/lib/form-errors';
import { endSession, endThisSession, revokeOtherSessions, useSessions } from '../api/sessions';
import { describeUserAgent } from '../utils/user-agent';
import { SessionCard } from './session-card';
import './account.css';
import { onEscape } from '@/lib/on-escape';

type Busy = { id: string } | 'others' | null;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Why an action failed, in a sentence (the server's own message when it gave one). */
function failure(error: unknown): string {
  const { fields, general } = describeSubmissionError(error);
  return [...general, ...Object.values(fields).flat()].join(' ');
}

/**
 * /sessions: every device signed in to the account, this one first marked, with Log out for each
 * and Log out everywhere else (asked first). After each action the list is loaded again and a polite
 * status line says what happened. Logging out this device is a logout: `onSignedOut` follows it.
 */
export function SessionsList({ onSignedOut }: { onSignedOut: () => void }) {
  const sessions = useSessions();
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState<Busy>(null);
  const [confirming, setConfirming] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Focus follows the question: onto Cancel when it appears, back onto the button when it is gone.
  useEffect(() => {
    if (confirming) cancel.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);
  // The list loaded again after an action may no longer hold the button that had focus (that device's
  // card, or the question once no other device is left): focus goes to the line saying what happened,
  // not to the page's <body> (docs/web-app.md, "Accessibility").
  const status = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (message && document.activeElement === document.body) status.current?.focus();
  }, [sessions.data, message]);

  /** Runs an action, then says what happened (`failed` opens the sentence of a failure) and reloads. */
  const run = async (what: Busy, failed: string, action: () => Promise<string>) => {
    setBusy(what);
    setMessage('');
    try {
      setMessage(await action());
    } catch (error) {
      if (error instanceof AuthLostError) return; // on its way to /login
      console.error('The session action failed', error);
      setMessage(`${failed} ${failure(error)}`);
    } finally {
      setBusy(null);
      setConfirming(false);
    }
    sessions.reload();
  };

  const logOut = (session: SessionInfo) => {
    const name = describeUserAgent(session.user_agent);
    if (session.current) {
      endThisSession();
      onSignedOut();
      return;
    }
    void run({ id: session.id }, `Could not log out ${name}:`, async () => {
      try {
        await endSession(session.id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return `${name} was already logged out.`;
        throw error;
      }
      return `Logged out ${name}.`;
    });
  };

  const logOutOthers = () =>
    void run('others', 'Could not log out the other sessions:', async () => {
      const revoked = await revokeOtherSessions();
      return revoked === 0
        ? 'No other device was signed in.'
        : `Logged out ${plural(revoked, 'other session', 'other sessions')}.`;
    });

  const list = sessions.data;
  const others = list?.filter((session) => !session.current).length ?? 0;
  return (
    <div className="sessions">
      <p ref={status} role="status" className="sessions-status" tabIndex={-1}>
        {message}
      </p>
      {sessions.status === 'failed' && <LoadFailed what="Your devices" onRetry={sessions.reload} />}
      {!list && sessions.status === 'loading' && <Loading />}
      {list && (
        <>
          <ul className="session-list" aria-label="Signed-in devices" aria-busy={sessions.status === 'loading'}>
            {list.map((session) => (
              <SessionCard
                key={session.id}
                session={session}
                action={
                  <Button
                    variant="secondary"
                    onClick={() => logOut(session)}
                    disabled={busy !== null}
                    aria-describedby={`session-${session.id}`}
                  >
                    {busy !== null && busy !== 'others' && busy.id === session.id ? 'Logging out…' : 'Log out'}
                  </Button>
                }
              />
            ))}
          </ul>
          {others === 0 ? (
            <p className="muted">No other device is signed in.</p>
          ) : confirming || busy === 'others' ? (
            <div
              className="account-confirm"
              role="group"
              aria-labelledby="sessions-confirm-question"
              onKeyDown={onEscape(() => setConfirming(false), busy === null)}
            >
              <p id="sessions-confirm-question">
                Log out {plural(others, 'other session', 'other sessions')}? Those devices will have to log in again.
              </p>
              <div className="row">
                <Button className="btn-danger" onClick={logOutOthers} disabled={busy !== null}>
                  {busy === 'others' ? 'Logging out…' : 'Yes, log them out'}
                </Button>
                <Button ref={cancel} variant="secondary" onClick={() => setConfirming(false)} disabled={busy !== null}>
                  Cancel
                </Button>
              </div>
            </div>
          ) : (
            <Button ref={ask} variant="secondary" onClick={() => setConfirming(true)} disabled={busy !== null}>
              Log out everywhere else
            </Button>
          )}
        </>
      )}
    </div>
  );
}
