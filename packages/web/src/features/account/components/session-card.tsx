import type { ReactNode } from 'react';
import type { SessionInfo } from '@hello/contract';
import { formatDateTime } from '@/utils/format';
import { describeUserAgent } from '../utils/user-agent';

/** One signed-in device: its readable name (the raw user agent a click away), address and times. */
export function SessionCard({ session, action }: { session: SessionInfo; action: ReactNode }) {
  const name = describeUserAgent(session.user_agent);
  const headingId = `session-${session.id}`;
  return (
    <li className={session.current ? 'session session-current' : 'session'} aria-labelledby={headingId}>
      <div className="session-head">
        <h2 id={headingId} className="session-name">
          {name}
          {session.current && <span className="session-badge">This device</span>}
        </h2>
        {action}
      </div>
      <dl className="session-facts">
        <div>
          <dt>IP address</dt>
          <dd>{session.ip || <span className="muted">Unknown</span>}</dd>
        </div>
        <div>
          <dt>Signed in</dt>
          <dd>
            <time dateTime={session.created_at}>{formatDateTime(session.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Last active</dt>
          <dd>
            <time dateTime={session.last_used_at}>{formatDateTime(session.last_used_at)}</time>
          </dd>
        </div>
      </dl>
      {session.user_agent && (
        <details className="session-agent">
          <summary>Browser details</summary>
          <code>{session.user_agent}</code>
        </details>
      )}
    </li>
  );
}
