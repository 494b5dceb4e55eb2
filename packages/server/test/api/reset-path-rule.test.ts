import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMessages } from '@hello/contract';
import { post } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { createUser } from '../helpers/users.js';

/**
 * A reset path that would read as a query of its own (`/x&next=` gives `…/x&next=?token=T`, whose
 * token a scrub keeping `next=` values would leave in place) is refused: no token is stored, no mail written.
 */
describe.each(dialects)('reset path rule (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { RATE_LIMIT_RESET: '0' });
  });
  afterAll(() => t.close());

  it.each(['/x&next=', '/x=1', '/a&b', '/x\t'])('answers 400 for %j and stores no token', async (path) => {
    const user = await createUser(t);
    const res = await post(t.app, '/api/password_reset/', { email: user.email, reset_new_password_path: path });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ reset_new_password_path: [serverMessages.invalidPath] });
    await t.app.afterAnswer.settled();
    const tokens = await t.app.db
      .selectFrom('password_reset_tokens')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(tokens).toEqual([]);
  });
});
