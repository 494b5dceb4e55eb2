// Cores for a comparison with a ceiling: on a machine with two cores or more, the load generator
// (this process: autocannon runs in it) on the first core and the server under test on the others,
// the product as its ceiling. Left to the kernel, a server's helper threads (V8's garbage collector
// above all) share the load generator's core, and the figure then says partly how fast the client
// could ask; a server that allocates more is hit harder. Pinned, each server has the same cores to
// itself and is measured alone. Linux only (taskset, from util-linux); elsewhere nothing is pinned.
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The cores for the client and the servers, or null when there are fewer than two or no taskset. */
export function coreSplit() {
  const cores = os.availableParallelism();
  if (cores < 2) return null;
  const last = cores - 1;
  const split = { client: '0', servers: last === 1 ? '1' : `1-${last}`, all: `0-${last}` };
  try {
    pin(process.pid, split.all); // changes nothing; fails where taskset is missing or not allowed
  } catch {
    return null;
  }
  return split;
}

/**
 * Sets the cores every thread of `pid` may run on (threads it starts later inherit them).
 * @param {number} pid
 * @param {string} cpus a taskset CPU list ("1-3")
 */
export function pin(pid, cpus) {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
