import type { AppConfig } from '../../config/app-config';

/**
 * The roles elected in scale-out: the projector writes the read models, the scheduler runs the
 * jobs that must run once (docs/scale-out.md#only-on-an-elected-process).
 */
export type ElectedRole = 'projector' | 'scheduler';

/**
 * Where an election is held:
 * - `file-lock`: an exclusive lock on DATA_DIR/<role>.lock, among the processes of one machine;
 * - `read-store-lease`: the `leases` collection of the shared MongoDB (READ_STORE_URL), across
 *   machines, with the projector's writes fenced by its token;
 * - `event-store-lease`: the stream `lease-<role>` of the shared EventStoreDB (EVENT_STORE_URL).
 */
export type ElectionEngine = 'file-lock' | 'read-store-lease' | 'event-store-lease';

/**
 * The engine that holds `role`'s election: a shared read store holds every lease (the read models
 * it fences live there); with only the event store shared, each machine keeps its read models in
 * its own DATA_DIR, so its projector is elected there and only the scheduler, whose jobs reach
 * the outside world, is elected across machines; with both stores embedded, file locks.
 */
export function electionEngine(
  config: Pick<AppConfig, 'eventStoreUrl' | 'readStoreUrl'>,
  role: ElectedRole,
): ElectionEngine {
  if (config.readStoreUrl) return 'read-store-lease';
  if (config.eventStoreUrl && role === 'scheduler') return 'event-store-lease';
  return 'file-lock';
}

/** How long an elected process keeps a role without confirming it (renewed every third). */
export const ELECTION_LEASE_TTL_MS = 15_000;
