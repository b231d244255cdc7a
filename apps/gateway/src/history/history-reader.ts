import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  type HistoryActorDto,
  type HistoryItemDto,
  type PageOf,
} from '@tollgate/contracts';
import { eventTimeMs, type EventStore, type RecordedEvent } from '@tollgate/event-store';
import type { Filter, ReadStore } from '@tollgate/read-store';
import { EVENT_STORE, READ_STORE } from '../infrastructure/injection-tokens';
import { SecretBox } from '../infrastructure/secret-box';
import { USERS, type UserDocument } from '../users/user.document';
import { isFoldedStream } from './audit-entity';
import { AUDIT_INDEX, type AuditIndexDocument } from './audit-index.document';
import { maskChannelKeys } from './channel-key-masking';
import { describeEvent, describeStream, type DescribedEvent } from './describe-event';

/** Who reads: an administrator sees everything; a user their own entities, others by role only. */
export type HistoryViewer =
  { readonly kind: 'admin' } | { readonly kind: 'self'; readonly userId: number };

export interface PageParams {
  readonly p?: number;
  readonly page_size?: number;
  readonly start_timestamp?: number;
  readonly end_timestamp?: number;
}

/** Fields a user does not see in their own history (administrators' notes). */
const HIDDEN_FROM_SELF: ReadonlySet<string> = new Set(['remark']);

/** Adds the time range of the query to an audit_index filter. */
export function withTimeRange(filter: Filter, params: PageParams, upTo?: number): Filter {
  const range: Record<string, number> = {};
  if (params.start_timestamp) range['$gte'] = params.start_timestamp;
  const end = [params.end_timestamp || undefined, upTo].filter((v) => v !== undefined);
  if (end.length > 0) range['$lte'] = Math.min(...end);
  return Object.keys(range).length > 0 ? { ...filter, time: range } : filter;
}

/**
 * Pages over audit_index (newest first) and describes each row's event, read from the log: the
 * folded streams (user, token, channel, redemption) are read from their start up to the newest row
 * of the page, to know each field's value before the change; the others event by event.
 */
@Injectable()
export class HistoryReader {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly secretBox: SecretBox,
  ) {}

  async page(
    filter: Filter,
    params: PageParams,
    viewer: HistoryViewer,
  ): Promise<PageOf<HistoryItemDto>> {
    const size = params.page_size || DEFAULT_PAGE_SIZE;
    const page = Math.max(1, params.p ?? 1);
    const index = this.readStore.collection<AuditIndexDocument>(AUDIT_INDEX);
    const [rows, total] = await Promise.all([
      index.find(filter, { sort: { pos: -1 }, skip: (page - 1) * size, limit: size }),
      index.count(filter),
    ]);
    return { items: await this.describe(rows, viewer), total, page, page_size: size };
  }

  /** The first audit row of an entity (a token's owner is on it). */
  /**
   * When an imported user's or token's recorded history begins (the time of its UserImported /
   * TokenImported), or null when it was created here.
   */
  importedAt(entity: 'user' | 'token', id: number): Promise<number | null> {
    const type = entity === 'user' ? 'UserImported' : 'TokenImported';
    return this.readStore
      .collection<AuditIndexDocument>(AUDIT_INDEX)
      .find({ entity, entity_id: id, type }, { sort: { pos: 1 }, limit: 1 })
      .then((rows) => rows[0]?.time ?? null);
  }

  firstRow(entity: AuditIndexDocument['entity'], id: number): Promise<AuditIndexDocument | null> {
    return this.readStore
      .collection<AuditIndexDocument>(AUDIT_INDEX)
      .find({ entity, entity_id: id }, { sort: { pos: 1 }, limit: 1 })
      .then((rows) => rows[0] ?? null);
  }

  private async describe(
    rows: readonly AuditIndexDocument[],
    viewer: HistoryViewer,
  ): Promise<HistoryItemDto[]> {
    const found = await this.readEvents(rows);
    const actorIds = [...found.values()]
      .map(({ event }) => (event.metadata['actor'] as { id?: unknown } | undefined)?.id)
      .filter((id): id is number => typeof id === 'number');
    const users = actorIds.length
      ? await this.readStore
          .collection<UserDocument>(USERS)
          .find({ id: { $in: [...new Set(actorIds)] } })
      : [];
    const names = new Map(users.map((u) => [u.id, u]));
    return rows.flatMap((row) => {
      const hit = found.get(`${row.stream}@${row.revision}`);
      if (!hit) return []; // the index is ahead of nothing: never expected, never fatal
      return [toItem(row, hit.event, hit.described, viewer, names)];
    });
  }

  private async readEvents(
    rows: readonly AuditIndexDocument[],
  ): Promise<Map<string, { event: RecordedEvent; described: DescribedEvent }>> {
    const found = new Map<string, { event: RecordedEvent; described: DescribedEvent }>();
    const upTo = new Map<string, number>();
    for (const row of rows)
      if (isFoldedStream(row.stream))
        upTo.set(row.stream, Math.max(upTo.get(row.stream) ?? 0, row.revision));
    await Promise.all([
      ...[...upTo].map(async ([stream, revision]) => {
        const events = await this.events.readStream(stream, { maxCount: revision + 1 });
        let describedEvents: readonly DescribedEvent[] = describeStream(events);
        if (stream.startsWith('channel-'))
          describedEvents = maskChannelKeys(events, describedEvents, (sealed) =>
            this.secretBox.open(sealed),
          );
        describedEvents.forEach((described, i) => {
          const event = events[i]!;
          found.set(`${stream}@${event.revision}`, { event, described });
        });
      }),
      ...rows
        .filter((row) => !isFoldedStream(row.stream))
        .map(async (row) => {
          const [event] = await this.events.readStream(row.stream, {
            fromRevision: row.revision,
            maxCount: 1,
          });
          if (event)
            found.set(`${row.stream}@${row.revision}`, {
              event,
              described: describeEvent(event.type, event.data, {}),
            });
        }),
    ]);
    return found;
  }
}

function toItem(
  row: AuditIndexDocument,
  event: RecordedEvent,
  described: DescribedEvent,
  viewer: HistoryViewer,
  users: ReadonlyMap<number, UserDocument>,
): HistoryItemDto {
  const meta = event.metadata;
  const actor = (meta['actor'] ?? {}) as { kind?: unknown; id?: unknown; role?: unknown };
  const actorId = typeof actor.id === 'number' ? actor.id : 0;
  const self = viewer.kind === 'self';
  const someoneElse = self && !(actor.kind === 'user' && actorId === viewer.userId);
  let who: HistoryActorDto;
  if (actor.kind === 'user') {
    const user = users.get(actorId);
    const role = typeof actor.role === 'number' ? actor.role : (user?.role ?? 0);
    who = someoneElse
      ? { kind: 'user', role }
      : { kind: 'user', id: actorId, username: user?.username ?? '', role };
  } else if (actor.kind === 'anonymous') who = { kind: 'anonymous' };
  else who = { kind: 'system', reason: described.reason || event.type };
  const changes = self
    ? described.changes.filter((c) => !HIDDEN_FROM_SELF.has(c.field))
    : described.changes;
  return {
    time: Math.floor(eventTimeMs(event) / 1000),
    type: event.type,
    entity: { kind: row.entity, id: row.entity_id },
    actor: who,
    changes,
    reason: described.reason,
    request_id: typeof meta['correlationId'] === 'string' ? meta['correlationId'] : '',
    ip: someoneElse || typeof meta['ip'] !== 'string' ? '' : meta['ip'],
  };
}
