import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { goodPassword, login, post, register } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { parseEml, resetLink, waitForEml } from '../helpers/mail.js';
import { uniqueEmail } from '../helpers/users.js';

/**
 * What the account calls write to the log: the reset link in local mode (no SMTP_URL), as the contract
 * asks, and never a password or token otherwise.
 */
describe.each(dialects)('account calls in the server log (%s)', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp(
      dialect,
      { LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) }, outbox: { pollMs: 50 } },
    );
  });
  afterAll(() => t.close());

  it('prints the reset link when mail only goes to DATA_DIR/mail, and no secret anywhere else', async () => {
    const email = uniqueEmail('logged');
    const password = goodPassword();
    const key: string = (await register(t.app, email, password)).json<{ key: string }>().key;
    const { access, refresh } = (await login(t.app, email, password)).json();
    await post(t.app, apiPaths.tokenRefresh, { refresh });
    await login(t.app, email, 'a-wrong-password');
    await post(t.app, apiPaths.passwordReset, { email, reset_new_password_path: '/resetnewpassword' });
    const { link, token } = resetLink((await parseEml((await waitForEml(t.dataDir, 1)).at(-1)!.text)).text);
    const newPassword = goodPassword();
    await post(t.app, apiPaths.passwordResetConfirm, { token, password: newPassword, confirm: newPassword });

    const withLink = lines.filter((line) => line.includes(link));
    expect(withLink).toHaveLength(1);
    expect(JSON.parse(withLink[0]!).msg).toContain(`Password reset link for ${email}`);
    const others = lines.filter((line) => !line.includes(link)).join('\n');
    expect(others).toContain('"url":"/api/v1/token/"'); // requests are logged…
    for (const secret of [password, newPassword, 'a-wrong-password', key, access, refresh, token]) {
      expect(others).not.toContain(secret); // …their secrets are not
    }
  });
});
