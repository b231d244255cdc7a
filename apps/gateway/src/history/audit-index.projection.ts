import type { RecordedEvent } from '@tollgate/event-store';
import type { Projection } from '@tollgate/read-store';
import {
  BILLING_EVENT_TYPES,
  CHANNEL_EVENT_TYPES,
  LOG_EVENT_TYPES,
  OPTIONS_EVENT_TYPES,
  REDEMPTION_EVENT_TYPES,
  TOKEN_EVENT_TYPES,
  USER_EVENT_TYPES,
} from '@tollgate/domain';
import { eventTimeMs, serializePosition } from '@tollgate/event-store';
import { auditEntityOf } from './audit-entity';
import { AUDIT_INDEX, type AuditIndexDocument } from './audit-index.document';
import { quotaDeltaOf } from './event-facts';

/** audit_index: one row per change of a user, token, channel, redemption code or option. */
export const auditIndexProjection: Projection = {
  name: 'audit-index',
  version: 1,
  collections: [
    {
      name: AUDIT_INDEX,
      indexes: [
        { fields: { entity: 1, entity_id: 1, pos: -1 } },
        { fields: { actor_id: 1, pos: -1 } },
        { fields: { actor_id: 1, time: 1 } },
      ],
    },
  ],
  eventTypes: [
    ...USER_EVENT_TYPES,
    ...BILLING_EVENT_TYPES,
    ...TOKEN_EVENT_TYPES,
    ...CHANNEL_EVENT_TYPES,
    ...REDEMPTION_EVENT_TYPES,
    ...OPTIONS_EVENT_TYPES,
    ...LOG_EVENT_TYPES,
    'RoutingRebuildRequested', // POST /api/channel/fix (an admin action)
  ],
  async apply(event, session) {
    const doc = auditRowOf(event);
    // Keyed by position: a replayed event writes the same row again.
    if (doc) await session.collection<AuditIndexDocument>(AUDIT_INDEX).put(doc);
  },
};

export function auditRowOf(event: RecordedEvent): AuditIndexDocument | null {
  const entity = auditEntityOf(event.streamId, event.type);
  if (!entity) return null;
  const actor = (event.metadata['actor'] ?? {}) as { kind?: unknown; id?: unknown };
  const data = (event.data ?? {}) as Record<string, unknown>;
  return {
    _id: serializePosition(event.position),
    pos: Number(event.position.commit),
    stream: event.streamId,
    revision: event.revision,
    type: event.type,
    entity: entity.kind,
    entity_id: entity.id,
    owner_id: entity.kind === 'token' && typeof data['userId'] === 'number' ? data['userId'] : 0,
    actor_id: actor.kind === 'user' && typeof actor.id === 'number' ? actor.id : 0,
    actor_kind: typeof actor.kind === 'string' ? actor.kind : 'system',
    time: Math.floor(eventTimeMs(event) / 1000),
    quota_delta: quotaDeltaOf(event.type, event.data),
  };
}
