#!/usr/bin/env node
import { loadDotEnv } from './config.js';
import { runCli } from './cli/run.js';

/** `hello-admin <command>`: operators' commands (see `hello-admin help`). Same configuration as the server. */
loadDotEnv();
process.exitCode = await runCli(process.argv.slice(2));
