import { passwordProblems } from '../auth/password-rules.js';
import { withAsciiDomain } from '../email-address.js';
import { insertUser } from '../repositories/users.js';
import { CliError, usageError } from './io.js';
import { readPassword } from './prompt.js';
import type { Command } from './command.js';

/** `create-user <email> [--password P]`: an account, hashed and checked exactly as registration does. */
export const createUserCommand: Command = {
  usage: 'create-user <email> [--password P]',
  summary: 'create an account (asks for the password, or reads it from stdin)',
  options: { password: { type: 'string' } },
  async run(app, { values, positionals }, io) {
    const [given, ...extra] = positionals;
    if (!given || extra.length > 0) throw usageError(`Usage: hello-admin ${this.usage}`);
    // In the form the account will have (an internationalized domain in ASCII), checked as such.
    const email = withAsciiDomain(given.trim());
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`"${email}" is not an e-mail address.`);
    const password = typeof values.password === 'string' ? values.password : await readPassword(io);
    const problems = passwordProblems(password, { email });
    if (problems.length > 0) throw new CliError(problems.join('\n'));
    const user = await insertUser(app.db, email, await app.passwords.hash(password));
    if (!user) throw new CliError(`A user with the e-mail ${email} exists already.`);
    io.out(`Created user ${user.id}: ${user.email}`);
  },
};
