import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import type { LimitVerdict } from '@tollgate/relay';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { UsageAppender } from '../usage/usage-appender';
import { ConcurrencySlots } from './concurrency-slots';
import { RateAllowances } from './rate-allowances';
import { ScaleOutLimits } from './scale-out-limits';

const MINUTE = 60_000;
/** 20 s into a minute: 40 s of the window left. */
const NOW = 10 * MINUTE + 20_000;
const NO_LIMITS = { rpm: 0, tpm: 0, concurrency: 0 };
const USER_LIMITS = { enabled: true, durationMinutes: 1, totalCount: 0, successCount: 0 };

describe('ScaleOutLimits: which allowance each limit draws on, and the verdicts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-scale-limits-'));
  let store: SqliteEventStore;
  let limits: ScaleOutLimits;

  beforeEach(() => {
    store = SqliteEventStore.open(join(dir, `events-${Date.now()}-${Math.random()}.sqlite`));
    const streams = new StreamCommands(store);
    const appender = { processId: 'a' } as UsageAppender;
    const config = { scaleOut: true, leaseTtlMs: 3_000 };
    limits = new ScaleOutLimits(
      new RateAllowances(config, streams, appender),
      new ConcurrencySlots(config, streams, appender),
    );
  });
  afterEach(() => store.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const verdict = async (v: LimitVerdict | Promise<LimitVerdict>) => v;

  it('refuses the rpm past the limit until the window ends', async () => {
    const rpm = { ...NO_LIMITS, rpm: 2 };
    expect((await verdict(limits.admitToken(1, rpm, NOW))).ok).toBe(true);
    expect((await verdict(limits.admitToken(1, rpm, NOW))).ok).toBe(true);
    expect(await verdict(limits.admitToken(1, rpm, NOW))).toEqual({
      ok: false,
      limit: 'rpm',
      max: 2,
      retryAfter: 40,
    });
  });

  it('refuses the tpm once the tokens used took the whole window', async () => {
    const tpm = { ...NO_LIMITS, tpm: 100 };
    expect((await verdict(limits.admitToken(2, tpm, NOW))).ok).toBe(true);
    limits.tokenUsed(2, tpm, 150, NOW);
    expect(await verdict(limits.admitToken(2, tpm, NOW))).toMatchObject({
      ok: false,
      limit: 'tpm',
    });
  });

  it('a refused rpm gives back the concurrency slot it had taken', async () => {
    const both = { ...NO_LIMITS, rpm: 1, concurrency: 1 };
    const first = await verdict(limits.admitToken(3, both, NOW));
    expect(first.ok).toBe(true);
    if (first.ok) first.release();
    expect(await verdict(limits.admitToken(3, both, NOW))).toMatchObject({ limit: 'rpm' });
    // The slot is free again: a token with rpm room left gets it.
    const slotOnly = { ...NO_LIMITS, concurrency: 1 };
    expect((await verdict(limits.admitToken(3, slotOnly, NOW))).ok).toBe(true);
  });

  it('counts the user requests and the successes per ModelRequestRateLimit window', async () => {
    const user = { ...USER_LIMITS, totalCount: 5, successCount: 1 };
    expect((await verdict(limits.admitUser(4, user, NOW))).ok).toBe(true);
    limits.userSucceeded(4, user, NOW);
    expect(await verdict(limits.admitUser(4, user, NOW))).toMatchObject({
      ok: false,
      limit: 'user_successes',
    });
  });

  it('a disabled user limit admits without any allowance', async () => {
    const off = { ...USER_LIMITS, enabled: false, totalCount: 1 };
    expect(limits.admitUser(5, off, NOW)).toMatchObject({ ok: true });
    expect(limits.admitUser(5, off, NOW)).toMatchObject({ ok: true });
    expect(await store.readStream(`allowance-user-5-requests-${10 * MINUTE}`)).toEqual([]);
  });
});
