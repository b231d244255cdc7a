import { randomUUID } from 'node:crypto';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type RecordedEvent,
} from '@tollgate/event-store';
import type { LeaseGrant, LeasePort } from './lease.port';

/** The stream that holds one role's lease. */
export const leaseStreamId = (role: string): string => `lease-${role}`;

export const LEASE_TAKEN = 'LeaseTaken';
export const LEASE_RENEWED = 'LeaseRenewed';
export const LEASE_RELEASED = 'LeaseReleased';

interface LeaseEventData {
  readonly holder: string;
  readonly ttlMs: number;
}

/** What a contender saw of a held lease: the stream's last revision, and since when (its clock). */
interface Sighting {
  readonly revision: number;
  readonly since: number;
}

/**
 * A lease kept in the event store, for deployments whose only shared engine is EventStoreDB: the
 * stream `lease-<role>` is appended with its expected revision, so of two processes acting on the
 * same state one wins. The token is the revision of the `LeaseTaken` event (a later taker appends
 * later). The holder renews by appending `LeaseRenewed`; a contender takes the role once it has
 * seen the stream's revision stand still for the lease's ttl, measured on its own clock: no clock
 * of another machine is ever compared, so skew does not matter.
 *
 * Growth: one event per renewal, every ttl/3 per role (with the 15 s default, 5 760 events a day
 * per role). Passing `maxCount` (EventStoreDB only) sets the stream's `$maxCount` at every take,
 * so the server scavenges the older ones.
 */
export class EventStoreLease implements LeasePort {
  private readonly seen = new Map<string, Sighting>();
  /** The last revision this process appended per role, the expected revision of its next one. */
  private readonly mine = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly options: {
      readonly now?: () => number;
      readonly maxCount?: number;
      /** A failed trim: the lease holds, the stream grows until the next take trims it. */
      readonly onError?: (error: Error) => void;
    } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async acquire(role: string, holder: string, ttlMs: number): Promise<LeaseGrant | null> {
    const last = await this.last(role);
    if (last && !this.free(role, last, holder)) return null;
    const revision = await this.append(role, LEASE_TAKEN, { holder, ttlMs }, last?.revision);
    if (revision === null) return null;
    this.seen.delete(role);
    if (this.options.maxCount)
      await this.trim(role, this.options.maxCount).catch((error: Error) =>
        this.options.onError?.(error),
      );
    return { token: revision };
  }

  async renew(role: string, holder: string, token: number, ttlMs: number): Promise<boolean> {
    const expected = this.mine.get(role);
    if (expected === undefined || expected < token) return false;
    return (await this.append(role, LEASE_RENEWED, { holder, ttlMs }, expected)) !== null;
  }

  async release(role: string, holder: string, token: number): Promise<void> {
    const expected = this.mine.get(role);
    if (expected === undefined || expected < token) return;
    await this.append(role, LEASE_RELEASED, { holder, ttlMs: 0 }, expected);
    this.mine.delete(role);
  }

  async holderOf(role: string): Promise<string | null> {
    const last = await this.last(role);
    if (!last || last.type === LEASE_RELEASED) return null;
    return (last.data as LeaseEventData).holder;
  }

  private free(role: string, last: RecordedEvent, holder: string): boolean {
    const data = last.data as LeaseEventData;
    if (last.type === LEASE_RELEASED || data.holder === holder) return true;
    const sighting = this.seen.get(role);
    if (!sighting || sighting.revision !== last.revision) {
      this.seen.set(role, { revision: last.revision, since: this.now() });
      return false;
    }
    return this.now() - sighting.since >= data.ttlMs;
  }

  private async last(role: string): Promise<RecordedEvent | undefined> {
    const events = await this.store.readStream(leaseStreamId(role), {
      direction: 'backwards',
      fromRevision: 'end',
      maxCount: 1,
    });
    return events[0];
  }

  /** The appended revision, or null when another process appended first. */
  private async append(
    role: string,
    type: string,
    data: LeaseEventData,
    expected: number | undefined,
  ): Promise<number | null> {
    try {
      const result = await this.store.append(
        leaseStreamId(role),
        [{ id: randomUUID(), type, data }],
        expected ?? 'no_stream',
      );
      const revision = result.nextExpectedRevision;
      this.mine.set(role, revision);
      return revision;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      this.mine.delete(role);
      return null;
    }
  }

  /** EventStoreDB's stream metadata is the `$metadata` event of `$$<stream>`. */
  private async trim(role: string, maxCount: number): Promise<void> {
    await this.store.append(
      `$$${leaseStreamId(role)}`,
      [{ id: randomUUID(), type: '$metadata', data: { $maxCount: maxCount } }],
      'any',
    );
  }
}
