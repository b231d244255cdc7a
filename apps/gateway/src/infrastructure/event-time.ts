/** When a recorded event happened: the metadata's occurredAt, else when it was recorded. */
export function eventTimeMs(event: {
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: Date;
}): number {
  const at = event.metadata['occurredAt'];
  const parsed = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(parsed) ? parsed : event.recordedAt.getTime();
}
