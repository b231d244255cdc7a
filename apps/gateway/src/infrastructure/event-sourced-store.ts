import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type EventStore, type Position, WrongExpectedRevisionError } from '@tollgate/event-store';
import type { Decider, DomainEvent, EventMetadata } from '@tollgate/domain';
import { KeyedMutex } from '../shared/keyed-mutex';
import type { RequestMeta } from '../shared/request-meta';
import { EVENT_STORE } from './injection-tokens';

export const SCHEMA_VERSION = 1;
const MAX_ATTEMPTS = 5;

export interface Decided<S, E> {
  readonly events: readonly E[];
  /** State after the new events. */
  readonly state: S;
  /** `$all` position of the last appended event; null when the decision appended nothing. */
  readonly position: Position | null;
}

/**
 * The only way command handlers change state: load the stream, fold, decide, append with
 * `expected = loaded revision`; retry on a conflict from another process.
 */
@Injectable()
export class EventSourcedStore {
  private readonly locks = new KeyedMutex();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async load<S, E extends DomainEvent>(
    streamId: string,
    decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>,
  ) {
    const recorded = await this.store.readStream(streamId);
    const state = recorded.reduce(
      (s, r) => decider.evolve(s, { type: r.type, data: r.data } as E),
      decider.initialState,
    );
    const revision = recorded.length === 0 ? null : recorded[recorded.length - 1]!.revision;
    return { state, revision };
  }

  execute<C, S, E extends DomainEvent>(
    streamId: string,
    decider: Decider<C, S, E>,
    command: C,
    meta: RequestMeta,
    now: Date = new Date(),
  ): Promise<Decided<S, E>> {
    return this.locks.run(streamId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        const { state, revision } = await this.load(streamId, decider);
        const events = decider.decide(command, state, { now });
        const after = events.reduce((s, e) => decider.evolve(s, e), state);
        if (events.length === 0) return { events, state: after, position: null };
        try {
          const result = await this.store.append(
            streamId,
            events.map((e) => ({
              id: randomUUID(),
              type: e.type,
              data: e.data,
              metadata: toMetadata(meta, now),
            })),
            revision === null ? 'no_stream' : revision,
          );
          return { events, state: after, position: result.position };
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS)
            throw error;
        }
      }
    });
  }
}

function toMetadata(meta: RequestMeta, now: Date): EventMetadata & Record<string, unknown> {
  return {
    schemaVersion: SCHEMA_VERSION,
    actor: meta.actor,
    ...(meta.ip ? { ip: meta.ip } : {}),
    correlationId: meta.correlationId,
    causationId: meta.correlationId,
    occurredAt: now.toISOString(),
  };
}
