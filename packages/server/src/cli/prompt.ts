import type { CliIo } from './io.js';

/**
 * The password for `create-user` when it is not on the command line (where `ps` would show it):
 * asked twice without echo on a terminal, else the first line of standard input (for scripts).
 */
export async function readPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY || !io.stdin.setRawMode) return firstLine(io.stdin);
  const first = await askHidden(io, 'Password: ');
  const second = await askHidden(io, 'Password (again): ');
  if (first !== second) throw new Error('The two passwords differ.');
  return first;
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** Reads one line in raw mode, echoing nothing; Ctrl-C aborts. */
function askHidden(io: CliIo, question: string): Promise<string> {
  const { stdin, promptOut } = io;
  promptOut.write(question);
  stdin.setRawMode!(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let answer = '';
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(() => resolve(answer));
        if (char === '\u0003') return finish(() => reject(new Error('Cancelled.')));
        if (char === '\u007f' || char === '\b') answer = Array.from(answer).slice(0, -1).join('');
        else answer += char;
      }
    };
    const finish = (settle: () => void) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode!(false);
      stdin.pause();
      promptOut.write('\n');
      settle();
    };
    stdin.on('data', onData);
  });
}
