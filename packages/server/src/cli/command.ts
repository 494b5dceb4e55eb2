import type { parseArgs } from 'node:util';
import type { buildApp } from '../app.js';
import type { CliIo } from './io.js';

export type App = Awaited<ReturnType<typeof buildApp>>;
type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];
export type Parsed = { values: Record<string, string | boolean | undefined>; positionals: string[] };

/** One operator's command: its usage line, options, and what it does with the built app. */
export interface Command {
  usage: string;
  summary: string;
  options: Options;
  run(app: App, args: Parsed, io: CliIo): Promise<void>;
}
