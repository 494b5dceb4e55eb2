import { appRoutes, texts } from '@hello/contract';
import type { OutgoingMail } from '../repositories/mail-outbox.js';

/**
 * The security notices of the account center (docs/api.md, "Account center"): plain text, what
 * happened, when, from which device and address, and what to do if it was not the account's owner.
 * Each is queued in the transaction of the change it reports, so it is sent if and only if the change
 * committed, and never delays the answer.
 */
export type SecurityEvent =
  | { kind: 'password-changed' }
  | { kind: 'password-reset' }
  | { kind: 'email-change-requested'; newEmail: string }
  | { kind: 'email-changed'; newEmail: string }
  | { kind: 'account-deleted' }
  | { kind: 'new-device' }
  | { kind: 'two-step-on' }
  | { kind: 'two-step-off' }
  | { kind: 'recovery-code-used'; left: number };

/** Where the change came from: the request's User-Agent and client address. */
export interface NoticeContext {
  at: Date;
  userAgent: string;
  ip: string;
  publicUrl: string;
}

const WHAT: Record<SecurityEvent['kind'], { subject: string; happened: (e: SecurityEvent) => string }> = {
  'password-changed': {
    subject: 'Your password was changed',
    happened: () => 'The password of your account was changed. Every other session was logged out.',
  },
  'password-reset': {
    subject: 'Your password was reset',
    happened: () => 'The password of your account was reset by a reset link. Every session was logged out.',
  },
  'email-change-requested': {
    subject: 'A change of your e-mail address was requested',
    happened: (e) =>
      `Someone asked to change the e-mail address of your account to ${(e as { newEmail: string }).newEmail}.\n` +
      'Nothing changes unless the link sent to that address is opened. A new password (a reset or a\n' +
      'change) cancels the request.',
  },
  'email-changed': {
    subject: 'Your e-mail address was changed',
    happened: (e) =>
      `The e-mail address of your account was changed to ${(e as { newEmail: string }).newEmail}.\n` +
      'Mail about your account now goes there; this is the last one sent to this address.',
  },
  'account-deleted': {
    subject: 'Your account was deleted',
    happened: () => 'Your account was deleted, with its profile, its sessions and its news items.',
  },
  'two-step-on': {
    subject: 'Two-step sign-in was turned on',
    happened: () =>
      'Two-step sign-in was turned on for your account: signing in now takes a code from your authenticator app.\n' +
      'Every other session was logged out.',
  },
  'two-step-off': {
    subject: 'Two-step sign-in was turned off',
    happened: () => 'Two-step sign-in was turned off for your account: signing in takes the password only.',
  },
  'recovery-code-used': {
    subject: 'A recovery code was used to sign in',
    happened: (e) => {
      const left = (e as { left: number }).left;
      return `A recovery code of your account was used to sign in. ${left} unused recovery code${left === 1 ? '' : 's'} left.`;
    },
  },
  'new-device': {
    subject: 'New sign-in to your account',
    happened: () => 'Your account was signed in to from a device not seen on it in the last 30 days.',
  },
};

export function securityNoticeMail(to: string, event: SecurityEvent, context: NoticeContext): OutgoingMail {
  const { subject, happened } = WHAT[event.kind];
  const notYou =
    event.kind === 'account-deleted'
      ? ['If it was not you, your password was known to someone else: write to us by replying to this mail.']
      : [
          'If it was you, you need not do anything.',
          'If it was not you, reset your password now at',
          `${context.publicUrl}${appRoutes.resetPasswordRequest}`,
          `and review where your account is signed in at ${context.publicUrl}${appRoutes.sessions}`,
        ];
  return {
    to,
    subject,
    text: [
      'Hello,',
      '',
      `${happened(event)}`,
      '',
      `When: ${context.at.toISOString().replace('T', ' ').slice(0, 19)} UTC`,
      `Device: ${context.userAgent || 'unknown'}`,
      `Address: ${context.ip || 'unknown'}`,
      '',
      ...notYou,
      '',
      `${texts.header}`,
      '',
    ].join('\n'),
  };
}

/** To the new address of an e-mail change: the confirmation link. */
export function confirmEmailMail(to: string, link: string, lifetimeSeconds: number): OutgoingMail {
  const minutes = Math.max(1, Math.round(lifetimeSeconds / 60));
  return {
    to,
    subject: 'Confirm your new e-mail address',
    text: [
      'Hello,',
      '',
      `Someone (hopefully you) asked to use this address for their account at ${texts.header}`,
      `To confirm it, open this link within ${minutes === 1 ? '1 minute' : `${minutes} minutes`}:`,
      '',
      link,
      '',
      'The link works once. If you did not ask for this, ignore this mail: nothing changes.',
      '',
    ].join('\n'),
  };
}

/** To the new address of an e-mail change when it has an account already: no link, the same answer. */
export function emailTakenMail(to: string, publicUrl: string): OutgoingMail {
  return {
    to,
    subject: 'Someone tried to move an account to your address',
    text: [
      'Hello,',
      '',
      `Someone asked to change the e-mail address of an account at ${texts.header} to this address,`,
      'which has an account already, so nothing was changed.',
      '',
      `If you forgot the password of your account, reset it at ${publicUrl}${appRoutes.resetPasswordRequest}`,
      'Otherwise you need not do anything.',
      '',
    ].join('\n'),
  };
}
