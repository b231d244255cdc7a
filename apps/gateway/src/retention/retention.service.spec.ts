import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import type { EventStore } from '@tollgate/event-store';
import type { AppConfig } from '../config/app-config';
import { SchedulerGate } from '../infrastructure/scheduler-gate';
import type { OptionsCache } from '../options/options.cache';
import { RetentionService } from './retention.service';
import { NOW, OLD_STREAMS, archiveFolder, usageStore } from './testing/usage-fixture';

describe('RetentionService', () => {
  let store: EventStore;
  let dataDir: string;
  let days: number;
  let service: RetentionService;
  beforeEach(async () => {
    store = await usageStore(30);
    dataDir = dirname(archiveFolder());
    days = 1;
    const options = { number: () => days } as unknown as OptionsCache;
    service = new RetentionService(
      { dataDir } as AppConfig,
      store,
      options,
      new SchedulerGate(null),
    );
    service.now = () => NOW;
  });
  afterEach(async () => {
    jest.useRealTimers();
    await service.onApplicationShutdown();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('compacts nothing while ReceiptRetentionDays is 0', async () => {
    days = 0;
    expect(await service.runOnce()).toEqual([]);
    expect(await store.streamRevision(OLD_STREAMS[0])).toBe(30);
    expect(service.stats).toEqual({ streams: 0, receipts: 0 });
  });

  it('runs its first pass a minute after start-up, then counts what it compacted', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const listed = jest.spyOn(store, 'listStreams');
    service.onApplicationBootstrap();
    jest.advanceTimersByTime(59_000);
    await tick();
    expect(listed).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1_000);
    expect(listed).toHaveBeenCalledTimes(1);
    // The timer started the pass: runOnce answers with the one under way.
    await service.runOnce();
    expect(service.stats).toEqual({ streams: 2, receipts: 60 });
    expect(await store.streamRevision(OLD_STREAMS[1])).toBeNull();
  });
});
