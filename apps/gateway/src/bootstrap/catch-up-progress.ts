import type { Position } from '@tollgate/event-store';
import { formatProgressBar, type ProjectionHost } from '@tollgate/read-store';

/**
 * While the read models catch up with the log (a rebuild after the read store was deleted, or a
 * long downtime), report a progress bar at most every `everyMs`. Catch-up keeps the event loop busy,
 * so this listens to the projections' advances rather than a timer. Positions are compared by their
 * commit part: event numbers on SQLite, log offsets on EventStoreDB, both fine for a ratio.
 */
export function reportCatchUp(
  host: Pick<ProjectionHost, 'position' | 'onAdvance'>,
  head: Position | null,
  report: (line: string) => void,
  everyMs = 1000,
  now: () => number = Date.now,
): () => void {
  if (!head || head.commit === 0n) return () => undefined;
  const total = Number(head.commit);
  let last = now();
  // One subscription feeds every projection, so its position is the progress of all of them.
  return host.onAdvance(() => {
    if (now() - last < everyMs) return;
    last = now();
    const done = Math.min(total, Number(host.position()?.commit ?? 0n));
    report(`Catching up read models ${formatProgressBar(done, total)}`);
  });
}
