import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteTemporaryFiles } from '@tollgate/testing/sqlite-temporary-files';
import { SqliteEventStore } from './sqlite-event-store';
import {
  WorkerWriter,
  WRITER_THREAD_NAME,
  type SerializedEvent,
  type WriteBatch,
  type WriteReply,
} from './sqlite-writer';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serialized = (type: string, payload = 'x'): SerializedEvent => ({
  id: randomUUID(),
  type,
  data: JSON.stringify({ payload }),
  metadata: '{}',
});
const batchOf = (streamId: string, events: SerializedEvent[]): WriteBatch => ({
  recordedAt: Date.now(),
  appends: [{ streamId, events, expected: 'any' }],
});
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('WorkerWriter', () => {
  let file: string;
  let writer: WorkerWriter;
  beforeEach(async () => {
    file = join(dir, `${randomUUID()}.sqlite`);
    await SqliteEventStore.open(file).close(); // the schema
    writer = new WorkerWriter(file, 'full', (error) => {
      throw error;
    });
  });
  afterEach(() => writer.close());

  it('answers the batches queued behind a commit in order; one that cannot be written fails alone', async () => {
    const replies: Array<[string, WriteReply]> = [];
    const write = (name: string, batch: WriteBatch) =>
      new Promise<void>((resolve) =>
        writer.write(batch, (reply) => {
          replies.push([name, reply]);
          resolve();
        }),
      );
    const big = write(
      'big',
      batchOf(
        'w-big',
        Array.from({ length: 20_000 }, () => serialized('Bulk', 'y'.repeat(200))),
      ),
    );
    await nextTick(); // the writer is busy with it: the next three wait in its port, together
    // Not text: the insert throws, which fails a transaction as a whole.
    const broken = { ...serialized('Broken'), data: { not: 'text' } } as unknown as SerializedEvent;
    const queued = [
      write('before', batchOf('w-a', [serialized('Kept')])),
      write('broken', batchOf('w-b', [broken])),
      write('after', batchOf('w-c', [serialized('Kept')])),
    ];
    await Promise.all([big, ...queued]);
    expect(replies.map(([name]) => name)).toEqual(['big', 'before', 'broken', 'after']);
    const outcome = (name: string) => replies.find(([n]) => n === name)![1];
    for (const name of ['big', 'before', 'after'])
      expect(outcome(name)).toMatchObject({ outcomes: [{ ok: true }] });
    expect(outcome('broken')).toMatchObject({ error: { message: expect.any(String) } });
    const db = new Database(file, { readonly: true });
    const rows = db
      .prepare('SELECT stream_id AS s, COUNT(*) AS n FROM events GROUP BY stream_id ORDER BY s')
      .all();
    db.close();
    expect(rows).toEqual([
      { s: 'w-a', n: 1 },
      { s: 'w-big', n: 20_000 },
      { s: 'w-c', n: 1 },
    ]);
  });

  it("keeps a commit's savepoint journal in memory: no temporary file is opened", async () => {
    // The sub-journal of a savepoint that changed more than 64 KiB of pages would be a temporary
    // file, closed at the commit.
    const write = (events: SerializedEvent[], done: (reply: WriteReply) => void) =>
      writer.write(batchOf('w-journal', events), done);
    const bulk = (n: number) =>
      Array.from({ length: n }, () => serialized('Bulk', 'y'.repeat(200)));
    // A savepoint journals only pages that existed before it: these make the index's pages exist,
    // so the random ids of the next append land on hundreds of them.
    await new Promise<WriteReply>((resolve) => write(bulk(20_000), resolve));
    let committed = false;
    const seen = new Set<string>();
    const big = new Promise<WriteReply>((resolve) =>
      write(bulk(5_000), (reply) => {
        committed = true;
        resolve(reply);
      }),
    );
    let looks = 0;
    while (!committed) {
      for (const link of sqliteTemporaryFiles()) seen.add(link);
      looks += 1;
      await nextTick();
    }
    expect(await big).toMatchObject({ outcomes: [{ ok: true }] });
    expect(looks).toBeGreaterThan(1); // it looked while the commit ran
    expect([...seen]).toEqual([]);
  });

  it('names its thread, so top -H, perf and taskset can tell it from the event loop', async () => {
    await new Promise<WriteReply>((resolve) =>
      writer.write(batchOf('w-named', [serialized('Named')]), resolve),
    );
    const names = readdirSync('/proc/self/task').map((tid) =>
      readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
    );
    expect(names).toContain(WRITER_THREAD_NAME);
  });
});
