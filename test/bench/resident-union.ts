import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

const PAGE = 4096;
const PRESENT = 1n << 63n;
const FRAME = (1n << 55n) - 1n;
const CHUNK_PAGES = 65_536;

/** The start and length (in pages) of each mapping of `pid` that has pages resident. */
function residentMappings(pid: number): Array<{ start: bigint; pages: number }> {
  const mappings: Array<{ start: bigint; pages: number }> = [];
  let current: { start: bigint; pages: number } | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
    if (range) {
      const start = BigInt(`0x${range[1]}`);
      current = { start, pages: Number((BigInt(`0x${range[2]}`) - start) / BigInt(PAGE)) };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current && Number(rss[1]) > 0) mappings.push(current);
  }
  return mappings;
}

/** The physical frames of `pid`'s resident pages; none when the kernel hides them. */
function residentFrames(pid: number, into: Set<bigint>): boolean {
  const fd = openSync(`/proc/${pid}/pagemap`, 'r');
  let seen = false;
  try {
    const entries = Buffer.alloc(CHUNK_PAGES * 8);
    for (const { start, pages } of residentMappings(pid)) {
      const first = Number(start / BigInt(PAGE));
      // In chunks: a mapping may reserve gigabytes (WebAssembly's guard regions) and touch little.
      for (let done = 0; done < pages; done += CHUNK_PAGES) {
        const count = Math.min(CHUNK_PAGES, pages - done);
        readSync(fd, entries, 0, count * 8, (first + done) * 8);
        for (let i = 0; i < count; i++) {
          const entry = entries.readBigUInt64LE(i * 8);
          if (!(entry & PRESENT)) continue;
          const frame = entry & FRAME;
          // Linux shows frame numbers only to CAP_SYS_ADMIN; to anyone else they read as 0.
          if (frame === 0n) return false;
          into.add(frame);
          seen = true;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return seen;
}

/**
 * MiB of memory the processes hold together: each physical page resident in any of them counted
 * once (the `node` binary both map, shared libraries), from /proc/<pid>/pagemap. Null when this
 * process may not read the frame numbers (not root) or a process is gone.
 */
export function residentUnionMiB(pids: readonly number[]): number | null {
  const frames = new Set<bigint>();
  try {
    for (const pid of pids) if (!residentFrames(pid, frames)) return null;
  } catch {
    return null;
  }
  return (frames.size * PAGE) / 1048576;
}
