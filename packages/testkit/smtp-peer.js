// @ts-check
// A real SMTP server that catches mail for tests: no auth, no TLS, every message parsed. It can be
// stopped and started again on the same port, or told to refuse, to test retries and outboxes.
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** @import { CaughtMail, SmtpPeer, SmtpRefusal, StartSmtpPeerOptions, WaitForMailOptions } from './smtp-peer.js' */
/** @import { AddressObject } from 'mailparser' */

/**
 * @param {AddressObject | AddressObject[] | undefined} field
 * @returns {string | undefined}
 */
const firstAddress = (field) => [field ?? []].flat()[0]?.value[0]?.address?.toLowerCase();

/**
 * @param {boolean | SmtpRefusal} mode
 * @returns {Required<SmtpRefusal> | undefined}
 */
function refusal(mode) {
  if (!mode) return undefined;
  const {
    at = 'rcpt',
    code = 451,
    message = code >= 500 ? 'Mailbox unavailable' : 'Try again later',
  } = mode === true ? {} : mode;
  return { at, code, message };
}

/** @param {Required<SmtpRefusal>} r */
function smtpError(r) {
  return Object.assign(new Error(r.message), { responseCode: r.code });
}

/**
 * @param {StartSmtpPeerOptions} [options]
 * @returns {Promise<SmtpPeer>}
 */
export async function startSmtpPeer(options = {}) {
  /** @type {CaughtMail[]} */
  const messages = [];
  /** @type {Set<() => void>} */
  const waiters = new Set();
  /** @type {Required<SmtpRefusal> | undefined} */
  let refusing;
  let refused = 0;
  let port = options.port ?? 0;
  /** @type {SMTPServer | undefined} */
  let server;

  const makeServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onRcptTo(_address, _session, callback) {
        if (refusing?.at === 'rcpt') {
          refused++;
          return callback(smtpError(refusing));
        }
        callback();
      },
      onData(stream, session, callback) {
        /** @type {Buffer[]} */
        const chunks = [];
        stream.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
        stream.on('end', () => {
          if (refusing?.at === 'data') {
            refused++;
            return callback(smtpError(refusing));
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '';
          simpleParser(raw).then(
            (parsed) => {
              messages.push({
                to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                from: firstAddress(parsed.from) ?? envelopeFrom,
                envelopeFrom,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: parsed.html === false ? undefined : parsed.html,
                raw,
                receivedAt: new Date(),
                parsed,
              });
              for (const wake of waiters) wake();
              callback();
            },
            (error) => callback(error),
          );
        });
      },
    });

  const start = async () => {
    if (server) return;
    const s = makeServer();
    await new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve(undefined));
    });
    s.on('error', () => {}); // a client hanging up mid-session is not our failure
    const address = s.server.address();
    if (address && typeof address !== 'string') port = address.port;
    server = s;
  };

  const stop = async () => {
    const s = server;
    if (!s) return;
    server = undefined;
    for (const connection of s.connections) connection.close();
    await new Promise((resolve) => s.close(() => resolve(undefined)));
  };

  await start();

  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get running() {
      return server !== undefined;
    },
    get refused() {
      return refused;
    },
    messages,
    start,
    stop,
    setRefusing(mode) {
      refusing = refusal(mode);
    },
    clear() {
      messages.length = 0;
    },
    waitForMail({ to, subject, since = 0, timeoutMs = 10_000 } = {}) {
      /** @param {CaughtMail} m */
      const matches = (m) =>
        (to === undefined || m.to.includes(to.toLowerCase())) &&
        (subject === undefined || (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)));
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(since).find(matches);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`no mail${to ? ` to ${to}` : ''} within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}
