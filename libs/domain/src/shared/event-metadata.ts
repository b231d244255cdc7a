/** Who caused an event. `system` covers bootstrap and automatic reactions. */
export interface Actor {
  readonly kind: 'user' | 'system' | 'anonymous';
  readonly id: number | null;
  readonly role: number | null;
}

/** The envelope metadata every stored event carries (docs/events.md). */
export interface EventMetadata {
  readonly schemaVersion: number;
  readonly actor: Actor;
  readonly ip?: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly occurredAt: string;
}

export const SYSTEM_ACTOR: Actor = { kind: 'system', id: null, role: null };
