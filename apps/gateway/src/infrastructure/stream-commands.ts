import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type EventStore, type Position, WrongExpectedRevisionError } from '@tollgate/event-store';
import type { Decider, DomainEvent, EventMetadata } from '@tollgate/domain';
import { KeyedMutex } from '../shared/keyed-mutex';
import type { RequestMeta } from '../shared/request-meta';
import { derivedId } from './derived-id';
import { EVENT_STORE } from './injection-tokens';

export const SCHEMA_VERSION = 1;
const MAX_ATTEMPTS = 5;
/** A snapshot is written once a stream has this many events past its last snapshot. */
export const SNAPSHOT_EVERY = 100;
/** Streams whose folded state stays in memory (least recently used ones are dropped). */
const MAX_CACHED_STREAMS = 50_000;
/** Snapshots of `<stream>` live in `snapshot-<stream>`; only the last one is ever read. */
export const SNAPSHOT_EVENT = 'StreamSnapshotted';

export interface StreamSnapshot {
  readonly stream: string;
  /** Revision of the last event folded into `state`. */
  readonly revision: number;
  /** The decider's `snapshotVersion` when it was written; another version is ignored. */
  readonly version: number;
  readonly state: unknown;
}

export interface Decided<S, E> {
  readonly events: readonly E[];
  /** State after the new events. */
  readonly state: S;
  /** `$all` position of the last appended event; null when the decision appended nothing. */
  readonly position: Position | null;
}

export interface ExecuteOptions {
  readonly now?: Date;
  /**
   * Identifies this command: event ids derive from it (a retried command appends nothing twice)
   * and the events' causationId is it. Given, it is also the append's idempotency key, so a repeat
   * is refused however many events the stream took since (an engine that deduplicates only recent
   * ids records the key, at one extra write per append). Default: a fresh uuid, which never repeats
   * and so goes without a key.
   */
  readonly commandId?: string;
  /** When an event (rather than a request) caused the command: its id becomes the causationId. */
  readonly causationId?: string;
}

type FoldingDecider<S, E> = Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'> & {
  readonly snapshotVersion?: number;
};

interface Folded {
  readonly decider: object;
  readonly state: unknown;
  readonly revision: number | null;
  /** Revision covered by the last snapshot (-1 when none). */
  readonly snapshotRevision: number;
}

/**
 * The only way command handlers change state: fold the stream, decide, append with
 * `expected = folded revision`, retry on a conflict from another process.
 *
 * Each stream's folded state and revision stay in memory, so a command reads only the events
 * appended after it (normally none: the per-stream lock serialises this process's writers; other
 * processes' appends are picked up by that tail read). On a cold start a stream whose decider
 * declares `snapshotVersion` starts from its last snapshot, so no command folds more than
 * SNAPSHOT_EVERY events however long the stream grew.
 */
@Injectable()
export class StreamCommands {
  private readonly locks = new KeyedMutex();
  private readonly folded = new Map<string, Folded>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Current state and revision of a stream (null revision = no stream). */
  async load<S, E extends DomainEvent>(
    streamId: string,
    decider: FoldingDecider<S, E>,
  ): Promise<{ state: S; revision: number | null }> {
    const entry = await this.fold(streamId, decider);
    return { state: entry.state as S, revision: entry.revision };
  }

  execute<C, S, E extends DomainEvent>(
    streamId: string,
    decider: Decider<C, S, E> & { readonly snapshotVersion?: number },
    command: C,
    meta: RequestMeta,
    options: ExecuteOptions = {},
  ): Promise<Decided<S, E>> {
    const now = options.now ?? new Date();
    const commandId = options.commandId ?? randomUUID();
    const appendOptions = options.commandId ? { idempotencyKey: options.commandId } : undefined;
    return this.locks.run(streamId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const entry = await this.fold(streamId, decider);
        const state = entry.state as S;
        const events = decider.decide(command, state, { now });
        const after = events.reduce((s, e) => decider.evolve(s, e), state);
        if (events.length === 0) return { events, state: after, position: null };
        const metadata = toMetadata(meta, now, commandId, options.causationId);
        try {
          const result = await this.store.append(
            streamId,
            events.map((e, index) => ({
              id: derivedId(commandId, index),
              type: e.type,
              data: e.data,
              metadata,
            })),
            entry.revision === null ? 'no_stream' : entry.revision,
            appendOptions,
          );
          const next: Folded = {
            ...entry,
            state: after,
            revision: result.nextExpectedRevision,
          };
          this.remember(streamId, next);
          await this.snapshotIfLong(streamId, decider, next);
          return { events, state: after, position: result.position };
        } catch (error) {
          // The same command already appended these events (a retry): nothing more to do.
          if ((error as Error).name === 'DuplicateEventIdError') {
            this.folded.delete(streamId);
            const reloaded = await this.fold(streamId, decider);
            return { events: [], state: reloaded.state as S, position: null };
          }
          if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS)
            throw error;
        }
      }
    });
  }

  private async fold<S, E>(streamId: string, decider: FoldingDecider<S, E>): Promise<Folded> {
    let entry = this.folded.get(streamId);
    if (!entry || entry.decider !== decider) entry = await this.coldStart(streamId, decider);
    const tail = await this.store.readStream(streamId, {
      fromRevision: entry.revision === null ? 'start' : entry.revision + 1,
    });
    if (tail.length > 0) {
      entry = {
        ...entry,
        state: tail.reduce(
          (s, r) => decider.evolve(s, { type: r.type, data: r.data } as E),
          entry.state as S,
        ),
        revision: tail[tail.length - 1]!.revision,
      };
    }
    this.remember(streamId, entry);
    return entry;
  }

  private async coldStart<S, E>(streamId: string, decider: FoldingDecider<S, E>): Promise<Folded> {
    const empty: Folded = {
      decider,
      state: decider.initialState,
      revision: null,
      snapshotRevision: -1,
    };
    if (decider.snapshotVersion === undefined) return empty;
    const [last] = await this.store.readStream(snapshotStream(streamId), {
      direction: 'backwards',
      maxCount: 1,
    });
    const snapshot = last?.data as StreamSnapshot | undefined;
    if (!snapshot || snapshot.version !== decider.snapshotVersion) return empty;
    return {
      decider,
      state: snapshot.state,
      revision: snapshot.revision,
      snapshotRevision: snapshot.revision,
    };
  }

  private remember(streamId: string, entry: Folded): void {
    const current = this.folded.get(streamId);
    // A concurrent load outside the lock must not replace a newer state with an older one.
    if (
      current &&
      current.decider === entry.decider &&
      (current.revision ?? -1) > (entry.revision ?? -1)
    )
      return;
    this.folded.delete(streamId); // re-insert: Map order is the LRU order
    this.folded.set(streamId, entry);
    if (this.folded.size > MAX_CACHED_STREAMS) {
      const oldest = this.folded.keys().next().value;
      if (oldest !== undefined) this.folded.delete(oldest);
    }
  }

  private async snapshotIfLong<S, E>(
    streamId: string,
    decider: FoldingDecider<S, E>,
    entry: Folded,
  ): Promise<void> {
    if (decider.snapshotVersion === undefined || entry.revision === null) return;
    if (entry.revision - entry.snapshotRevision < SNAPSHOT_EVERY) return;
    const snapshot: StreamSnapshot = {
      stream: streamId,
      revision: entry.revision,
      version: decider.snapshotVersion,
      state: entry.state,
    };
    try {
      // `any`: snapshots are an optimisation; the last one written wins and all are correct.
      await this.store.append(
        snapshotStream(streamId),
        [
          {
            id: derivedId(`snapshot:${streamId}`, entry.revision),
            type: SNAPSHOT_EVENT,
            data: snapshot,
            metadata: { schemaVersion: SCHEMA_VERSION, occurredAt: new Date().toISOString() },
          },
        ],
        'any',
      );
    } catch (error) {
      if ((error as Error).name !== 'DuplicateEventIdError') throw error;
    }
    this.remember(streamId, { ...entry, snapshotRevision: entry.revision });
  }
}

export function snapshotStream(streamId: string): string {
  return `snapshot-${streamId}`;
}

function toMetadata(
  meta: RequestMeta,
  now: Date,
  commandId: string,
  causationId: string | undefined,
): EventMetadata & Record<string, unknown> {
  return {
    schemaVersion: SCHEMA_VERSION,
    actor: meta.actor,
    ...(meta.ip ? { ip: meta.ip } : {}),
    correlationId: meta.correlationId,
    causationId: causationId ?? commandId,
    commandId,
    occurredAt: now.toISOString(),
  };
}
