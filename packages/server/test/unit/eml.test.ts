import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, parseEml } from '../../src/cli/eml.js';

describe('parseEml', () => {
  it('decodes headers, encoded words and a quoted-printable text body', () => {
    const mail = parseEml(
      'From: a@x\r\nSubject: =?UTF-8?B?UsOpaW5pdGlhbGlzZXI=?=\r\n =?UTF-8?Q?_le_mot?=\r\nContent-Type: text/plain; charset=utf-8\r\n' +
        'Content-Transfer-Encoding: quoted-printable\r\n\r\nlink: http://h/p?token=3Dab=\r\ncd 100% caf=C3=A9\r\n',
    );
    expect(mail.headers.subject).toBe('Réinitialiser le mot');
    expect(mail.text).toBe('link: http://h/p?token=abcd 100% café\n');
  });

  it('finds the text part of a multipart mail, base64 included', () => {
    const body = Buffer.from('hello, world').toString('base64');
    const mail = parseEml(
      'Subject: s\nContent-Type: multipart/alternative; boundary="b1"\n\n--b1\nContent-Type: text/html\n\n<p>x</p>\n' +
        `--b1\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n${body}\n--b1--\n`,
    );
    expect(mail.text.trim()).toBe('hello, world');
  });

  it('shows text that is not valid UTF-8 as written', () => {
    expect(decodeQuotedPrintable('bad =FF byte')).toBe('bad =FF byte');
  });
});
