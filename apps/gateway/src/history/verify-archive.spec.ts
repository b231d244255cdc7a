import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ARCHIVE_CHAIN_STREAM, type UsageArchived } from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import { writeSegment } from '../retention/archive-segment';
import { compactUsage } from '../retention/compaction-pass';
import {
  NEW_STREAM,
  NOW,
  OLD_STREAMS,
  archiveFolder,
  usageStore,
} from '../retention/testing/usage-fixture';
import { verifyArchive } from './verify-archive';

describe('verifyArchive', () => {
  let store: EventStore;
  let folder: string;
  beforeEach(async () => {
    store = await usageStore(60);
    folder = archiveFolder();
    await compactUsage({ store, archiveFolder: folder, retentionDays: 1, now: () => NOW });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dirname(folder), { recursive: true, force: true });
  });

  it('passes on the chain a pass wrote', async () => {
    expect(await verifyArchive(store, folder)).toEqual({ ok: true, segments: 2, failures: [] });
  });

  it('fails, naming the segment, when one byte of it changed', async () => {
    const file = join(folder, `${OLD_STREAMS[1]}.jsonl.gz`);
    const bytes = readFileSync(file);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0x01;
    writeFileSync(file, bytes);
    const report = await verifyArchive(store, folder);
    expect(report.ok).toBe(false);
    expect(report.failures[0]).toMatchObject({
      link: 1,
      source: OLD_STREAMS[1],
      problem: 'sha256',
    });
    expect(report.failures.every((f) => f.source === OLD_STREAMS[1])).toBe(true);
  });

  it('fails on a missing segment', async () => {
    rmSync(join(folder, `${OLD_STREAMS[0]}.jsonl.gz`));
    const report = await verifyArchive(store, folder);
    expect(report.failures).toEqual([
      expect.objectContaining({ link: 0, source: OLD_STREAMS[0], problem: 'missing' }),
    ]);
  });

  it('fails on a broken chain link', async () => {
    const written = await writeSegment(folder, NEW_STREAM, await store.readStream(NEW_STREAM));
    const data: UsageArchived['data'] = {
      source: NEW_STREAM,
      hourStart: 0,
      segment: written.segment,
      sha256: written.sha256,
      previousSha256: 'f'.repeat(64),
      bytes: written.bytes,
      receipts: 20,
      quota: 0,
    };
    await store.append(
      ARCHIVE_CHAIN_STREAM,
      [{ id: randomUUID(), type: 'UsageArchived', data }],
      1,
    );
    const report = await verifyArchive(store, folder);
    expect(report.ok).toBe(false);
    expect(report.failures.find((f) => f.problem === 'chain_link')).toMatchObject({
      link: 2,
      source: NEW_STREAM,
    });
    expect(report.failures.some((f) => f.link < 2)).toBe(false);
  });
});
