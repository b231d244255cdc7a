import { rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { EventStore } from '@tollgate/event-store';
import {
  fromArchivedLine,
  parseSegment,
  readSegmentBytes,
  sha256Hex,
  writeSegment,
} from './archive-segment';
import { OLD_STREAMS, archiveFolder, usageStore } from './testing/usage-fixture';

describe('archive segments', () => {
  let store: EventStore;
  let folder: string;
  beforeEach(async () => {
    store = await usageStore(30);
    folder = archiveFolder();
  });
  afterEach(async () => {
    await store.close();
    rmSync(dirname(folder), { recursive: true, force: true });
  });

  it('writes a stream as gzip JSON lines that read back as the recorded events', async () => {
    const events = await store.readStream(OLD_STREAMS[0]);
    const written = await writeSegment(folder, OLD_STREAMS[0], events);
    expect(written.segment).toBe(`${OLD_STREAMS[0]}.jsonl.gz`);
    const bytes = await readSegmentBytes(folder, written.segment);
    expect(bytes?.length).toBe(written.bytes);
    expect(sha256Hex(bytes!)).toBe(written.sha256);
    const lines = await parseSegment(bytes!);
    expect(lines).toHaveLength(31);
    expect(lines.map(fromArchivedLine)).toEqual(events);
  });

  it('gives the same bytes for the same events and replaces a partial file', async () => {
    const events = await store.readStream(OLD_STREAMS[1]);
    const first = await writeSegment(folder, OLD_STREAMS[1], events);
    writeFileSync(join(folder, first.segment), gzipSync('{"partial":'));
    const again = await writeSegment(folder, OLD_STREAMS[1], events);
    expect(again).toEqual(first);
    expect(sha256Hex((await readSegmentBytes(folder, first.segment))!)).toBe(first.sha256);
  });

  it('reads a missing segment as null and refuses bytes that are not a segment', async () => {
    mkdirSync(folder, { recursive: true });
    expect(await readSegmentBytes(folder, 'usage-x-2026010100.jsonl.gz')).toBeNull();
    await expect(parseSegment(Buffer.from('not gzip'))).rejects.toThrow();
  });
});
