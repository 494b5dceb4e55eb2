import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SmtpPeer } from '@hello/testkit/smtp-peer';

/** What a test gets back for one caught mail. */
export interface Mail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
}

/**
 * Tests run in worker processes; the SMTP peer lives in the runner's process (global setup). This
 * tiny loopback HTTP endpoint lets them wait for a mail:
 * `GET /mail?to=ADDRESS&subject=S&timeoutMs=N` answers 200 with the first mail to ADDRESS (with that
 * subject, when given), now or when it arrives, or 404 with the list of what did arrive.
 */
export async function serveMailbox(peer: SmtpPeer): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const to = query.get('to') ?? undefined;
    const subject = query.get('subject') ?? undefined;
    const timeoutMs = Math.min(Number(query.get('timeoutMs') ?? 15_000), 60_000);
    peer
      .waitForMail({ to, subject, timeoutMs })
      .then((mail) => {
        const body: Mail = {
          to: mail.to,
          from: mail.from,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? null,
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      })
      .catch((error: unknown) => {
        res
          .writeHead(404, { 'content-type': 'text/plain' })
          .end(error instanceof Error ? error.message : String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
