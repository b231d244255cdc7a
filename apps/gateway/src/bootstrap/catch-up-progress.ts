import type { Position } from '@tollgate/event-store';
import { formatProgressBar, type ProjectionHost } from '@tollgate/read-store';

/**
 * While the read models catch up with the log (a rebuild after the read store was deleted, or a
 * long downtime), report a progress bar at most every `everyMs`. Catch-up keeps the event loop busy,
 * so this listens to the runners' advances rather than a timer. Positions are compared by their
 * commit part: event numbers on SQLite, log offsets on EventStoreDB, both fine for a ratio.
 */
export function reportCatchUp(
  host: ProjectionHost,
  head: Position | null,
  report: (line: string) => void,
  everyMs = 1000,
  now: () => number = Date.now,
): () => void {
  if (!head || head.commit === 0n) return () => undefined;
  const total = Number(head.commit);
  let last = now();
  const onAdvance = () => {
    if (now() - last < everyMs) return;
    last = now();
    // Runners catch up one after another, so the mean says more than the slowest one.
    const positions = host.runners.map((runner) =>
      Math.min(total, Number(runner.position()?.commit ?? 0n)),
    );
    const mean = Math.round(positions.reduce((a, b) => a + b, 0) / Math.max(1, positions.length));
    report(`Catching up read models ${formatProgressBar(mean, total)}`);
  };
  const unsubscribes = host.runners.map((runner) => runner.onAdvance(onAdvance));
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
