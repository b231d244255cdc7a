import type { HistoryEntityKind } from '@tollgate/contracts';

export const AUDIT_INDEX = 'audit_index';

/**
 * One row per change of an audited entity: where its event is in the log, whose it is and who made
 * it. The history routes page over these rows and read the events themselves from the log.
 */
export interface AuditIndexDocument {
  /** The event's `$all` position (serialized). */
  readonly _id: string;
  /** `$all` commit: the order of the history (newest first = highest). */
  readonly pos: number;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly entity: HistoryEntityKind;
  readonly entity_id: number;
  /** A token's owner (0 otherwise): a user reads the history of their own tokens. */
  readonly owner_id: number;
  /** The acting user's id, 0 for the system or an anonymous caller. */
  readonly actor_id: number;
  readonly actor_kind: string;
  /** Unix seconds (occurredAt). */
  readonly time: number;
  /** Change of the user's balance (billing events; 0 otherwise): the balance-at rule sums it. */
  readonly quota_delta: number;
}
