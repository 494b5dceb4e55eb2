import { texts } from '@hello/contract';
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
