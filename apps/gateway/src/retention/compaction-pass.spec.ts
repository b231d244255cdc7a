import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ARCHIVE_CHAIN_STREAM,
  summarizeReceipts,
  usageSummaryStreamId,
  type RequestRelayed,
  type UsageArchived,
  type UsageSummarized,
} from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import { verifyArchive } from '../history/verify-archive';
import { writeSegment } from './archive-segment';
import { compactUsage } from './compaction-pass';
import {
  NEW_STREAM,
  NOW,
  OLD_STREAMS,
  archiveFolder,
  failingOnce,
  usageStore,
} from './testing/usage-fixture';

const pass = (store: EventStore, folder: string) =>
  compactUsage({ store, archiveFolder: folder, retentionDays: 1, now: () => NOW });

/** What a pass leaves that must not depend on how many passes it took. */
async function outcome(store: EventStore) {
  const chain = await store.readStream(ARCHIVE_CHAIN_STREAM);
  const summaries = await Promise.all(
    OLD_STREAMS.map((s) => store.readStream(usageSummaryStreamId(s))),
  );
  return {
    chain: chain.map((e) => ({ id: e.id, type: e.type, data: e.data as UsageArchived['data'] })),
    summaries: summaries.map((events) => events.map((e) => ({ id: e.id, data: e.data }))),
    old: await Promise.all(OLD_STREAMS.map((s) => store.streamRevision(s))),
    recent: (await store.readStream(NEW_STREAM)).length,
  };
}

describe('compactUsage', () => {
  let store: EventStore;
  let folder: string;
  /** The segment hashes of the old hours as one uninterrupted pass writes them. */
  let hashes: string[];
  beforeEach(async () => {
    store = await usageStore();
    folder = archiveFolder();
    const elsewhere = archiveFolder();
    hashes = [];
    for (const source of OLD_STREAMS)
      hashes.push((await writeSegment(elsewhere, source, await store.readStream(source))).sha256);
    rmSync(dirname(elsewhere), { recursive: true, force: true });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dirname(folder), { recursive: true, force: true });
  });

  it('summarizes, archives and removes the old hours, oldest first; the recent hour stays', async () => {
    const receipts = await Promise.all(
      OLD_STREAMS.map(async (s) =>
        (await store.readStream(s))
          .filter((e) => e.type === 'RequestRelayed')
          .map((e) => e.data as RequestRelayed['data']),
      ),
    );
    const compacted = await pass(store, folder);
    expect(compacted.map((c) => c.source)).toEqual([...OLD_STREAMS]);
    expect(compacted.map((c) => [c.receipts, c.summarized, c.archived])).toEqual([
      [120, true, true],
      [120, true, true],
    ]);
    const after = await outcome(store);
    expect(after.old).toEqual([null, null]);
    expect(after.recent).toBe(20);
    after.summaries.forEach((events, i) => {
      expect(events).toHaveLength(1);
      expect((events[0]!.data as UsageSummarized['data']).rows).toEqual(
        summarizeReceipts(receipts[i]!),
      );
    });
    const [first, second] = after.chain.map((e) => e.data);
    expect(first).toMatchObject({ source: OLD_STREAMS[0], previousSha256: null, receipts: 120 });
    expect(first!.quota).toBe(receipts[0]!.reduce((n, r) => n + r.quota, 0));
    expect(second!.previousSha256).toBe(first!.sha256);
    expect([first!.sha256, second!.sha256]).toEqual(hashes);
    expect((await verifyArchive(store, folder)).ok).toBe(true);
  });

  it('does nothing on a second pass, and nothing at all with 0 days', async () => {
    await pass(store, folder);
    const before = await outcome(store);
    expect(await pass(store, folder)).toEqual([]);
    expect(await outcome(store)).toEqual(before);
    const fresh = await usageStore();
    expect(
      await compactUsage({ store: fresh, archiveFolder: folder, retentionDays: 0, now: () => NOW }),
    ).toEqual([]);
    expect(await fresh.streamRevision(OLD_STREAMS[0])).toBe(120);
    await fresh.close();
  });

  it('resumes a pass interrupted after the summary (no archive file) to the same chain', async () => {
    // The archive folder cannot be made: the pass dies after the first summary.
    mkdirSync(dirname(folder), { recursive: true });
    writeFileSync(folder, 'not a folder');
    await expect(pass(store, folder)).rejects.toThrow();
    expect(await store.readStream(usageSummaryStreamId(OLD_STREAMS[0]))).toHaveLength(1);
    expect(await store.readStream(ARCHIVE_CHAIN_STREAM)).toEqual([]);
    rmSync(folder);
    const resumed = await pass(store, folder);
    expect(resumed.map((c) => [c.summarized, c.archived])).toEqual([
      [false, true],
      [true, true],
    ]);
    await expectSameAsOnePass(store, folder, hashes);
  });

  it('resumes a pass interrupted after the archive file, before the chain event', async () => {
    const crashing = failingOnce(store, 'append', (stream) => stream === ARCHIVE_CHAIN_STREAM);
    await expect(pass(crashing, folder)).rejects.toThrow('crash in append');
    // A partial file under the segment's name is rewritten.
    writeFileSync(`${folder}/${OLD_STREAMS[0]}.jsonl.gz`, 'partial');
    const resumed = await pass(store, folder);
    expect(resumed.map((c) => [c.summarized, c.archived])).toEqual([
      [false, true],
      [true, true],
    ]);
    await expectSameAsOnePass(store, folder, hashes);
  });

  it('resumes a pass interrupted after the chain event, before the removal', async () => {
    const crashing = failingOnce(store, 'deleteStream');
    await expect(pass(crashing, folder)).rejects.toThrow('crash in deleteStream');
    expect(await store.streamRevision(OLD_STREAMS[0])).toBe(120);
    const resumed = await pass(store, folder);
    expect(resumed.map((c) => [c.summarized, c.archived])).toEqual([
      [false, false],
      [true, true],
    ]);
    await expectSameAsOnePass(store, folder, hashes);
  });
});

/** One summary per source, one link per source, the old hours gone, the archive verified. */
async function expectSameAsOnePass(
  store: EventStore,
  folder: string,
  hashes: readonly string[],
): Promise<void> {
  const after = await outcome(store);
  expect(after.chain.map((e) => e.data.sha256)).toEqual(hashes);
  expect(after.old).toEqual([null, null]);
  expect(after.recent).toBe(20);
  expect(after.summaries.map((s) => s.length)).toEqual([1, 1]);
  expect(after.chain.map((e) => e.data.source)).toEqual([...OLD_STREAMS]);
  expect(after.chain[1]!.data.previousSha256).toBe(after.chain[0]!.data.sha256);
  const report = await verifyArchive(store, folder);
  expect(report).toEqual({ ok: true, segments: 2, failures: [] });
}
