import { useEffect, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export const RECOVERY_CODES_FILE = 'recovery-codes.txt';

/** The codes as a text file of their own, one a line (a Blob: nothing leaves the browser). */
function download(codes: string[], email: string | null): void {
  const text = [
    `Recovery codes for two-step sign-in${email ? ` of ${email}` : ''} at ${window.location.host}`,
    'Each code works once, in place of the code of your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = RECOVERY_CODES_FILE;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * The ten recovery codes, shown this once (they live in this component's state only: leaving the
 * page forgets them, and the server keeps only their hashes), with `Download` as a .txt file.
 */
export function RecoveryCodes(props: { codes: string[]; email: string | null; onDone: () => void }) {
  const { codes, email, onDone } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="recovery-codes">
      <Alert tone="success" title="Two-step sign-in is on.">
        <p>Every other device that was signed in to your account has been logged out.</p>
      </Alert>
      <h2 ref={heading} tabIndex={-1}>
        Your recovery codes
      </h2>
      <p>
        If you lose your phone, each of these codes signs you in once in place of the app&rsquo;s code.{' '}
        <strong>Save them now: they are shown only this once.</strong>
      </p>
      <ol className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="row">
        <Button onClick={() => download(codes, email)}>Download</Button>
        <Button variant="secondary" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </div>
  );
}
