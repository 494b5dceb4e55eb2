import { appRoutes, texts } from '@hello/contract';
import type { OutgoingMail } from '../repositories/mail-outbox.js';

/** The texts of the mails we send: plain, short and friendly. */

const minutes = (seconds: number) => {
  const m = Math.max(1, Math.round(seconds / 60));
  return m === 1 ? '1 minute' : `${m} minutes`;
};

export function resetPasswordMail(to: string, link: string, lifetimeSeconds: number): OutgoingMail {
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Hello,',
      '',
      `Someone (hopefully you) asked to reset the password of your account at ${texts.header}`,
      `To choose a new password, open this link within ${minutes(lifetimeSeconds)}:`,
      '',
      link,
      '',
      'The link works once. If you did not ask for a new password, ignore this mail:',
      'your password stays as it is.',
      '',
    ].join('\n'),
  };
}

/**
 * Sent instead of an error when someone registers with an address that has an account already, so
 * the registration answer reveals nothing while the owner still learns what happened.
 */
export function registrationAttemptMail(to: string, publicUrl: string): OutgoingMail {
  return {
    to,
    subject: 'Someone tried to register with your address',
    text: [
      'Hello,',
      '',
      `Someone just tried to create an account at ${texts.header} with this e-mail address,`,
      'which has an account already. Nothing was changed.',
      '',
      `If it was you, log in at ${publicUrl}${appRoutes.login}`,
      `or, if you forgot your password, reset it at ${publicUrl}${appRoutes.resetPasswordRequest}`,
      '',
      'If it was not you, you need not do anything.',
      '',
    ].join('\n'),
  };
}
