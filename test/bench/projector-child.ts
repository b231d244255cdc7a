import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { WRITER_THREAD_NAME } from '@tollgate/event-store';
import { childPidsOf, commandLineOf } from '../support/proc-tree';
import { pssMiBOf, rssMiBOf } from './bench-processes';

/** Linux's clock tick for /proc/<pid>/stat times (USER_HZ). */
const TICK_MS = 10;

/** CPU time (user + system, every thread) a process has used, in ms. */
export function cpuMsOf(pid: number | null): number {
  if (!pid) return 0;
  try {
    return ticksOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')) * TICK_MS;
  } catch {
    return 0;
  }
}

/** A process's CPU time in ms split by thread: its event loop, the event store's writer, the rest. */
export interface ThreadCpuMs {
  readonly loop: number;
  readonly writer: number;
  /** V8's GC helpers, libuv's pool, the read workers: every other thread. */
  readonly other: number;
}

/** utime + stime: the stat file's fields 14 and 15 (11 and 12 after the name), in clock ticks. */
function ticksOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * ThreadCpuMs of a running process, from /proc/<pid>/task; zeros once it is gone. `other` is the
 * process's whole time less the two named threads: a thread that ended (an idle read worker) keeps
 * its time there, where a sum over the threads still running would lose it.
 */
export function threadCpuMsOf(pid: number | null): ThreadCpuMs {
  const split = { loop: 0, writer: 0, other: 0 };
  if (!pid) return split;
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tids) {
    try {
      const ms = ticksOfStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')) * TICK_MS;
      if (tid === String(pid)) split.loop += ms;
      else if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === WRITER_THREAD_NAME)
        split.writer += ms;
    } catch {
      // The thread ended between the listing and the read: it counts in `other`.
    }
  }
  split.other = Math.max(0, cpuMsOf(pid) - split.loop - split.writer);
  return split;
}

/**
 * The gateway's projector child (default start, PROJECTOR=process): found among the gateway's
 * children, and let run on every core — it inherited the gateway's pinning, and the point of the
 * child is that the write side leaves the relay's core. Null when the gateway projects inline.
 */
export async function releaseProjector(gatewayPid: number): Promise<number | null> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const child = childPidsOf(gatewayPid).find((pid) =>
      commandLineOf(pid).some((arg) => arg.endsWith('apps/projector/src/main.js')),
    );
    if (child) {
      spawnSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(child)], {
        stdio: 'ignore',
      });
      return child;
    }
    if (process.env['PROJECTOR'] === 'inline') return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/** CPU used by the relay process and the projector between `start` and `stop`, per request. */
export function cpuSplit(relayPid: number, projectorPid: number | null) {
  const relay0 = cpuMsOf(relayPid);
  const projector0 = cpuMsOf(projectorPid);
  return {
    stop(requests: number): string {
      const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, requests));
      const relay = per(cpuMsOf(relayPid) - relay0);
      if (!projectorPid) return `CPU per request: ${relay} µs (projections inline)`;
      return `CPU per request: relay ${relay} µs, projector ${per(cpuMsOf(projectorPid) - projector0)} µs`;
    },
  };
}

/**
 * RSS of the relay process and its projector, in MiB: it counts the pages both map (the `node`
 * binary, ~53 MiB) once in each. One line of /proc/<pid>/status each, cheap enough to sample.
 */
export function rssOf(relayPid: number, projectorPid: number | null) {
  const relay = rssMiBOf(relayPid);
  const projector = projectorPid ? rssMiBOf(projectorPid) : 0;
  return { relay, projector, total: relay + projector };
}

/**
 * rssOf, and the two processes' PSS added up (`pss`). Not for sampling: smaps_rollup walks each
 * process's whole address space.
 */
export function rssSplit(relayPid: number, projectorPid: number | null) {
  const pss = pssMiBOf(relayPid) + (projectorPid ? pssMiBOf(projectorPid) : 0);
  return { ...rssOf(relayPid, projectorPid), pss };
}
