import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@tollgate/event-store';
import { SYSTEM_ACTOR, billingDecider, fold, type BillingEvent } from '@tollgate/domain';
import { StreamCommands } from '../../apps/gateway/src/infrastructure/stream-commands';
import type { RequestMeta } from '../../apps/gateway/src/shared/request-meta';

/**
 * A command on a user whose billing stream holds 300k events must cost what it costs on a new
 * user: warm (state kept in memory, only the tail is read) and cold (a fresh process starts from
 * the last snapshot). Prints the ratios; the old way (fold the whole stream) is measured in the
 * same run as the reference. BENCH_BILLING_EVENTS overrides the stream length.
 */
const LONG = Number(process.env['BENCH_BILLING_EVENTS'] ?? 300_000);
const WARM_COMMANDS = 300;
const COLD_STARTS = 30;
const meta: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'bench', lang: 'en' };
const grant = (userId: number) =>
  ({ type: 'GrantQuota', userId, amount: 1, reason: 'topup' }) as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

describe('billing stream: command cost does not grow with the stream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  let store: SqliteEventStore;

  beforeAll(async () => {
    store = SqliteEventStore.open(join(dir, 'events.sqlite'), { synchronous: 'normal' });
    const seedStart = Date.now();
    // Seeded the way a long life would leave it (a grant per event), in group-committed chunks.
    for (let written = 0; written < LONG; written += 5000) {
      const n = Math.min(5000, LONG - written);
      await store.append(
        'billing-1',
        Array.from({ length: n }, () => ({
          id: randomUUID(),
          type: 'QuotaGranted',
          data: { userId: 1, amount: 1, reason: 'topup' },
          metadata: {},
        })),
        'any',
      );
    }
    console.log(`seeded billing-1 with ${LONG} events in ${Date.now() - seedStart} ms`);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the ratios (long stream / new user), warm and cold', async () => {
    // Reference: what every command paid before (read + fold the whole stream).
    const fullFold = await timeMs(async () => {
      const events = await store.readStream('billing-1');
      fold(
        billingDecider,
        events.map((e) => ({ type: e.type, data: e.data }) as BillingEvent),
      );
    });

    // First command of a process on the legacy stream: one full fold, then a snapshot is written.
    const commands = new StreamCommands(store);
    const firstEver = await timeMs(() =>
      commands.execute('billing-1', billingDecider, grant(1), meta),
    );

    // Warm: the same process, state in memory.
    const warmLong: number[] = [];
    const warmNew: number[] = [];
    for (let i = 0; i < WARM_COMMANDS; i += 1) {
      warmLong.push(
        await timeMs(() => commands.execute('billing-1', billingDecider, grant(1), meta)),
      );
      warmNew.push(
        await timeMs(() =>
          commands.execute(`billing-${1000 + i}`, billingDecider, grant(1000 + i), meta),
        ),
      );
    }

    // Cold: a fresh process each time (nothing in memory), starting from the last snapshot.
    const coldLong: number[] = [];
    const coldNew: number[] = [];
    for (let i = 0; i < COLD_STARTS; i += 1) {
      coldLong.push(
        await timeMs(() =>
          new StreamCommands(store).execute('billing-1', billingDecider, grant(1), meta),
        ),
      );
      coldNew.push(
        await timeMs(() =>
          new StreamCommands(store).execute(
            `billing-${5000 + i}`,
            billingDecider,
            grant(5000 + i),
            meta,
          ),
        ),
      );
    }

    const warmRatio = median(warmLong) / median(warmNew);
    const coldRatio = median(coldLong) / median(coldNew);
    const { state } = await new StreamCommands(store).load('billing-1', billingDecider);
    console.log(
      [
        `billing stream of ${LONG} events vs a new user (median per command, same run):`,
        `  reference, fold the whole stream once: ${fullFold.toFixed(1)} ms`,
        `  first command of a process on a stream without snapshot: ${firstEver.toFixed(1)} ms (once; writes a snapshot)`,
        `  warm: ${median(warmLong).toFixed(3)} ms vs ${median(warmNew).toFixed(3)} ms  ratio ${warmRatio.toFixed(2)}`,
        `  cold (from the snapshot): ${median(coldLong).toFixed(3)} ms vs ${median(coldNew).toFixed(3)} ms  ratio ${coldRatio.toFixed(2)}`,
        `  full fold / cold command on the long stream: ${(fullFold / median(coldLong)).toFixed(0)}x`,
      ].join('\n'),
    );
    // The folded state is right: every grant counted once.
    expect(state.quota).toBe(LONG + 1 + WARM_COMMANDS + COLD_STARTS);
    // Same order of cost (generous bound: two shared cores, timer noise at sub-millisecond scale).
    expect(warmRatio).toBeLessThan(3);
    expect(coldRatio).toBeLessThan(3);
  });
});
