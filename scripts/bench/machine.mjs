// The machine a run was made on, for the report.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function describeMachine() {
  const cpus = os.cpus();
  let model = cpus[0]?.model?.trim() ?? 'unknown CPU';
  let cores = cpus.length;
  // In a container os.cpus() lists the host's CPUs; the cgroup quota says how many we may use.
  try {
    const [quota, period] = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim().split(/\s+/);
    if (quota !== 'max') cores = Math.min(cores, Math.max(1, Math.round(Number(quota) / Number(period))));
  } catch {
    /* no cgroup v2 limit */
  }
  if (typeof os.availableParallelism === 'function') cores = Math.min(cores, os.availableParallelism());
  return {
    cpu: model,
    cores,
    ramGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** @param {ReturnType<typeof describeMachine>} m */
export function machineLine(m) {
  return `${m.cpu}, ${m.cores} cores, ${m.ramGiB.toFixed(1)} GiB RAM, Node ${m.node}, ${m.os}`;
}
