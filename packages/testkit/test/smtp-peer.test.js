// @ts-check
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpPeer } from '../smtp-peer.js';

/** @import { SmtpPeer } from '../smtp-peer.js' */

describe('startSmtpPeer', () => {
  /** @type {SmtpPeer} */
  let peer;
  /** @param {Record<string, string>} [mail] */
  const send = (mail = {}) =>
    nodemailer.createTransport(peer.url).sendMail({
      from: 'Hello all <no-reply@hello.test>',
      to: 'Alice@Example.test',
      subject: 'Reset your password',
      text: 'Open http://127.0.0.1:8000/reset?token=abc',
      html: '<p>Open <a href="http://127.0.0.1:8000/reset?token=abc">this link</a></p>',
      ...mail,
    });

  beforeAll(async () => {
    const t0 = performance.now();
    peer = await startSmtpPeer();
    console.log(`smtp peer started in ${Math.round(performance.now() - t0)} ms`);
  });
  beforeEach(async () => {
    peer.setRefusing(false);
    await peer.start();
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('catches a mail sent by nodemailer and parses it', async () => {
    const since = peer.messages.length;
    await send();
    const mail = await peer.waitForMail({ to: 'alice@example.test', since, timeoutMs: 5_000 });
    expect(peer.url).toBe(`smtp://127.0.0.1:${peer.port}`);
    expect(mail.to).toEqual(['alice@example.test']);
    expect(mail.from).toBe('no-reply@hello.test');
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text.trim()).toBe('Open http://127.0.0.1:8000/reset?token=abc');
    expect(mail.html).toContain('href="http://127.0.0.1:8000/reset?token=abc"');
    expect(mail.raw).toMatch(/^Subject: Reset your password$/m);
  });

  it('waitForMail waits for a mail that comes later, and times out naming what came', async () => {
    const since = peer.messages.length;
    const waiting = peer.waitForMail({ to: 'bob@example.test', since });
    await send({ to: 'carol@example.test', subject: 'not this one' });
    await send({ to: 'bob@example.test', subject: 'this one' });
    expect((await waiting).subject).toBe('this one');
    await expect(peer.waitForMail({ to: 'nobody@example.test', since, timeoutMs: 200 })).rejects.toThrow(
      /no mail to nobody@example.test within 200 ms.*not this one/,
    );
  });

  it('refuses at RCPT with 451, then delivers once it accepts again', async () => {
    peer.setRefusing(true);
    const before = peer.refused;
    await expect(send()).rejects.toMatchObject({ responseCode: 451 });
    expect(peer.refused).toBe(before + 1);
    peer.setRefusing(false);
    const since = peer.messages.length;
    await send();
    await peer.waitForMail({ since, timeoutMs: 5_000 });
  });

  it('refuses after DATA with a permanent 550 and keeps nothing', async () => {
    peer.setRefusing({ at: 'data', code: 550 });
    const count = peer.messages.length;
    await expect(send()).rejects.toMatchObject({ responseCode: 550 });
    expect(peer.messages.length).toBe(count);
  });

  it('stops (connection refused) and starts again on the same port, keeping its messages', async () => {
    const { port } = peer;
    const count = peer.messages.length;
    await peer.stop();
    expect(peer.running).toBe(false);
    await expect(send()).rejects.toMatchObject({ code: 'ESOCKET' });
    await peer.start();
    expect(peer.port).toBe(port);
    await send({ subject: 'after restart' });
    expect((await peer.waitForMail({ since: count, timeoutMs: 5_000 })).subject).toBe('after restart');
  });
});
