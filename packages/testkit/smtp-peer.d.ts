import type { ParsedMail } from 'mailparser';

export interface StartSmtpPeerOptions {
  /** Port on 127.0.0.1. Default: one the OS picks (kept across stop()/start()). */
  port?: number;
}

/** One message the peer accepted. Addresses are lower-cased. */
export interface CaughtMail {
  /** Envelope recipients (RCPT TO): who the mail was really delivered to. */
  to: string[];
  /** The From header's address (the envelope sender when there is none). */
  from: string;
  /** MAIL FROM. */
  envelopeFrom: string;
  subject: string;
  text: string;
  html: string | undefined;
  /** The message as received (RFC 822). */
  raw: string;
  receivedAt: Date;
  /** mailparser's full result: headers, attachments, … */
  parsed: ParsedMail;
}

/** How to refuse: at RCPT TO (default) or after DATA, with this reply code (default 451, a temporary failure). */
export interface SmtpRefusal {
  at?: 'rcpt' | 'data';
  code?: number;
  message?: string;
}

export interface WaitForMailOptions {
  /** Recipient address (any letter case). Default: any. */
  to?: string;
  subject?: string | RegExp;
  /** Only messages at index >= since in `messages`: take `peer.messages.length` before the action. Default 0. */
  since?: number;
  /** Default 10 000. */
  timeoutMs?: number;
}

export interface SmtpPeer {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /** Every accepted message, oldest first; kept across stop()/start(). */
  readonly messages: CaughtMail[];
  /** Deliveries refused since start (setRefusing). */
  readonly refused: number;
  /** The first message (from index `since`) matching, now or when it arrives; rejects after timeoutMs listing what came. */
  waitForMail(options?: WaitForMailOptions): Promise<CaughtMail>;
  /** Closes open sessions and stops listening: clients get connection refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. No-op when running. */
  start(): Promise<void>;
  /** true: answer 451 to RCPT TO; an object picks the stage and code (4xx temporary, 5xx permanent); false: accept again. */
  setRefusing(mode: boolean | SmtpRefusal): void;
  /** Empties `messages`. */
  clear(): void;
}

/** Starts an SMTP server on 127.0.0.1 with no auth and no STARTTLS that parses and keeps every message. */
export declare function startSmtpPeer(options?: StartSmtpPeerOptions): Promise<SmtpPeer>;
