import type { HistoryEntityKind } from '@tollgate/contracts';

/** Where an event's history belongs: the entity its stream is about. */
export interface AuditEntity {
  readonly kind: HistoryEntityKind;
  readonly id: number;
}

const BY_CATEGORY: Readonly<Record<string, HistoryEntityKind>> = {
  user: 'user',
  billing: 'user',
  token: 'token',
  channel: 'channel',
  redemption: 'redemption',
};
const SINGLE_STREAMS: Readonly<Record<string, HistoryEntityKind>> = {
  options: 'option',
  logs: 'logs',
  'routing-fix': 'routing',
};

/**
 * Not changes of an entity: a logout, the registration's closing step (its grants follow as their
 * own events). Guards, sequences, snapshots and usage receipts live on other streams and never map.
 */
const NOT_CHANGES: ReadonlySet<string> = new Set(['UserSignedOut', 'UserRegistrationCompleted']);

/** The entity of a stream (`user-5`, `billing-5` → user 5), or null when it is not audited. */
export function auditEntityOf(streamId: string, type: string): AuditEntity | null {
  if (NOT_CHANGES.has(type)) return null;
  const single = SINGLE_STREAMS[streamId];
  if (single) return { kind: single, id: 0 };
  const match = /^([a-z]+)-(\d+)$/.exec(streamId);
  if (!match) return null;
  const kind = BY_CATEGORY[match[1]!];
  return kind ? { kind, id: Number(match[2]) } : null;
}

/** Streams whose events carry only new values: describing one needs the stream folded before it. */
export function isFoldedStream(streamId: string): boolean {
  return /^(user|token|channel|redemption)-\d+$/.test(streamId);
}
