// Memory and CPU time of a process, read from /proc (Linux). Off Linux every figure is null.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resident set size in bytes (VmRSS), or null when /proc is not there.
 * @param {number} pid
 */
export function rssBytes(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** @type {number | undefined} */
let ticksPerSecond;
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU time (user + system, all threads) the process has used so far, in ms; null off Linux.
 * @param {number} pid
 */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Direct children of a process (nginx's workers, say), from /proc/<pid>/task/<tid>/children.
 * @param {number} pid
 */
function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU time of a process and its direct children (alive now), in ms; null off Linux.
 * @param {number} pid
 */
export function treeCpuMs(pid) {
  const own = cpuMs(pid);
  if (own === null) return null;
  return childPids(pid).reduce((sum, child) => sum + (cpuMs(child) ?? 0), own);
}

/**
 * Samples a process's RSS every `intervalMs` until stopped; stop() returns { max, last } in bytes.
 * The timer is unref'd, so a forgotten sampler never keeps the benchmark alive.
 * @param {number} pid
 */
export function sampleRss(pid, intervalMs = 200) {
  let max = rssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    const now = rssBytes(pid);
    if (now !== null && now > max) max = now;
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const last = rssBytes(pid);
      return { max: Math.max(max, last ?? 0), last };
    },
  };
}

export const MB = 1024 * 1024;
