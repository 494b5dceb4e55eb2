import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { backupCommand } from './backup.js';
import type { App, Command, Parsed } from './command.js';
import { CliError, processIo, usageError, type CliIo } from './io.js';
import { mailCommand } from './mail.js';
import { newsCommand } from './news.js';
import { addPdfCommand, listPdfsCommand } from './pdfs.js';
import { createUserCommand } from './users.js';

const commands: Record<string, Command> = {
  'create-user': createUserCommand,
  'add-pdf': addPdfCommand,
  'list-pdfs': listPdfsCommand,
  mail: mailCommand,
  news: newsCommand,
  backup: backupCommand,
};

const help = () =>
  [
    'Usage: hello-admin <command> [options]',
    '',
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(44)} ${c.summary}`),
    '',
    'Configuration comes from the environment and .env, as for the server.',
  ].join('\n');

/** Runs one command and resolves its exit code; never throws for an operator's mistake. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo(),
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  let app: App | undefined;
  try {
    let args: Parsed;
    try {
      args = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true }) as Parsed;
    } catch (error) {
      throw usageError(`${(error as Error).message}\nUsage: hello-admin ${command.usage}`);
    }
    // Quiet unless asked: the server's info logs would drown the command's own output.
    app = await buildApp(loadConfig({ LOG_LEVEL: 'warn', ...env }));
    await command.run(app, args, io);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    io.err(`Failed: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await app?.close();
  }
}
