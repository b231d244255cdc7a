import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { UsageAppender } from '../usage/usage-appender';
import { ConcurrencySlots } from './concurrency-slots';

const TOKEN = 9;
const LIMIT = 3;
/** Short holds: renewed once a third of the TTL is left, idle slots given back after 200 ms. */
const TTL_MS = 1_200;

/** One gateway process: its own store handle on the shared file and its own slots. */
class Node {
  readonly store: SqliteEventStore;
  readonly slots: ConcurrencySlots;

  constructor(file: string, processId: string) {
    this.store = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 5 });
    this.slots = new ConcurrencySlots(
      { scaleOut: true, leaseTtlMs: TTL_MS },
      new StreamCommands(this.store),
      { processId } as UsageAppender,
    );
    this.slots.onApplicationBootstrap();
  }

  /** `count` requests starting together; how many got a slot. */
  async start(count: number): Promise<number> {
    const got = await Promise.all(
      Array.from({ length: count }, async () => this.slots.acquire(TOKEN, LIMIT)),
    );
    return got.filter(Boolean).length;
  }

  finish(count: number): void {
    for (let i = 0; i < count; i++) this.slots.release(TOKEN);
  }

  /** Dies as kill -9 would: no renewal, nothing given back. */
  async crash(): Promise<void> {
    this.slots.onModuleDestroy();
    await this.store.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ConcurrencySlots: processes sharing one token concurrency limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-slots-'));
  const nodes: Node[] = [];
  let file: string;

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
  });
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((node) => node.crash().catch(() => undefined)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const node = (processId: string): Node => {
    const started = new Node(file, processId);
    nodes.push(started);
    return started;
  };

  it('two processes together never run more than the limit at once', async () => {
    const [a, b] = [node('a'), node('b')];
    const running = await Promise.all([a.start(3), b.start(3)]);
    expect(running[0] + running[1]).toBe(LIMIT);
    expect(await b.start(1)).toBe(0);
  });

  it('slots finished and idle are given back to the others', async () => {
    const [a, b] = [node('a'), node('b')];
    expect(await a.start(3)).toBe(3);
    expect(await b.start(1)).toBe(0);
    a.finish(3);
    await sleep(400);
    expect(await b.start(3)).toBe(3);
  });

  it('a hold in use is renewed past its ttl', async () => {
    const [a, b] = [node('a'), node('b')];
    expect(await a.start(2)).toBe(2);
    await sleep(3 * TTL_MS);
    expect(await b.start(2)).toBe(1);
  });

  it("a killed process's slots come back once its hold lapses", async () => {
    const [a, b] = [node('a'), node('b')];
    expect(await a.start(3)).toBe(3);
    await a.crash();
    nodes.splice(nodes.indexOf(a), 1);
    expect(await b.start(1)).toBe(0);
    await sleep(TTL_MS + 100);
    expect(await b.start(3)).toBe(3);
  });
});
