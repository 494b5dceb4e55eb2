import { SMTPServer } from 'smtp-server';

export interface HangingSmtpPeer {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  readonly url: string;
  /** Mails whose DATA was received and never answered. */
  readonly hanging: number;
  /** Ends every session (the client sees the connection close) and stops listening. */
  close(): Promise<void>;
}

/**
 * An SMTP server that takes a mail's envelope and its whole DATA, then never answers: a delivery to it
 * hangs until the client's own socket timeout (30 s, src/mail/transport.ts) or close().
 */
export async function startHangingSmtpPeer(): Promise<HangingSmtpPeer> {
  let hanging = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream) {
      stream.on('end', () => (hanging += 1));
      stream.resume(); // and no callback: the reply to DATA never comes
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {}); // a client hanging up mid-session is not our failure
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    get hanging() {
      return hanging;
    },
    async close() {
      for (const connection of server.connections) (connection as { close(): void }).close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
