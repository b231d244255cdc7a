import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { UsageAppender } from '../usage/usage-appender';
import { RateAllowances } from './rate-allowances';

const MINUTE = 60_000;
/** A time inside one window, well clear of its edges. */
const NOW = 10 * MINUTE + 20_000;

/** One gateway process: its own store handle on the shared file and its own allowances. */
class Node {
  readonly store: SqliteEventStore;
  readonly allowances: RateAllowances;

  constructor(file: string, processId: string) {
    this.store = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 5 });
    this.allowances = new RateAllowances({ scaleOut: true }, new StreamCommands(this.store), {
      processId,
    } as UsageAppender);
  }

  /** `count` concurrent requests of one request each; how many were admitted. */
  async requests(key: string, limit: number, count: number, now = NOW): Promise<number> {
    const admitted = await Promise.all(
      Array.from({ length: count }, async () => this.allowances.take(key, limit, MINUTE, 1, now)),
    );
    return admitted.filter(Boolean).length;
  }
}

/** Σ AllowanceTaken in a stream, as the log holds it. */
async function takenIn(store: SqliteEventStore, stream: string): Promise<number> {
  const events = await store.readStream(stream);
  return events.reduce((sum, event) => sum + (event.data as { amount: number }).amount, 0);
}

describe('RateAllowances: processes sharing one request limit through allowance slices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-allowances-'));
  const nodes: Node[] = [];
  let file: string;

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
  });
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.store.close().catch(() => undefined)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const node = (processId: string): Node => {
    const started = new Node(file, processId);
    nodes.push(started);
    return started;
  };

  it('two processes together never admit more than the limit', async () => {
    const [a, b] = [node('a'), node('b')];
    const admitted = await Promise.all([
      a.requests('token-1-rpm', 10, 20),
      b.requests('token-1-rpm', 10, 20),
    ]);
    expect(admitted[0] + admitted[1]).toBe(10);
    expect(await takenIn(a.store, `allowance-token-1-rpm-${10 * MINUTE}`)).toBe(10);
  });

  it('three processes share a small limit (6 a minute) to the request', async () => {
    const three = [node('a'), node('b'), node('c')];
    const admitted = await Promise.all(three.map((n) => n.requests('token-2-rpm', 6, 10)));
    expect(admitted.reduce((sum, n) => sum + n, 0)).toBe(6);
  });

  it('a high limit costs one append per slice, not per request', async () => {
    const a = node('a');
    expect(await a.requests('token-3-rpm', 1_600, 300)).toBe(300);
    // Slices of 100 (1 600 cut for four processes, four slices each): three appends for 300.
    const events = await a.store.readStream(`allowance-token-3-rpm-${10 * MINUTE}`);
    expect(events.length).toBeLessThanOrEqual(4);
  });

  it('a window all taken is refused in memory, and the next window grants again', async () => {
    const [a, b] = [node('a'), node('b')];
    expect(await a.requests('user-4-requests', 3, 3)).toBe(3);
    expect(await b.requests('user-4-requests', 3, 5)).toBe(0);
    const stream = `allowance-user-4-requests-${10 * MINUTE}`;
    const before = (await a.store.readStream(stream)).length;
    expect(await b.requests('user-4-requests', 3, 5)).toBe(0);
    expect((await a.store.readStream(stream)).length).toBe(before);
    // The next minute has its own stream and its whole limit.
    expect(await b.requests('user-4-requests', 3, 5, NOW + MINUTE)).toBe(3);
    expect(await takenIn(a.store, `allowance-user-4-requests-${11 * MINUTE}`)).toBe(3);
  });

  it('usage counted after the answer is a debt the next slice pays (tpm)', async () => {
    const [a, b] = [node('a'), node('b')];
    const key = 'token-5-tpm';
    expect(await a.allowances.holds(key, 40, MINUTE, NOW)).toBe(true);
    // A request on a slice of 3 used 30 tokens: the next slice takes 3 more plus the 27 owed.
    a.allowances.use(key, MINUTE, 30, NOW);
    expect(await a.allowances.holds(key, 40, MINUTE, NOW)).toBe(true);
    expect(await takenIn(a.store, `allowance-${key}-${10 * MINUTE}`)).toBe(33);
    // B may hold what is left (7), not more: once it used it, the window is all taken.
    expect(await b.allowances.holds(key, 40, MINUTE, NOW)).toBe(true);
    b.allowances.use(key, MINUTE, 7, NOW);
    expect(await b.allowances.holds(key, 40, MINUTE, NOW)).toBe(false);
    expect(await takenIn(a.store, `allowance-${key}-${10 * MINUTE}`)).toBe(40);
  });
});
