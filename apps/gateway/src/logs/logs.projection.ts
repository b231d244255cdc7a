import { LogType } from '@tollgate/contracts';
import type { RecordedEvent } from '@tollgate/event-store';
import {
  BatchMemo,
  type BatchWrites,
  type Filter,
  type Projection,
  type ReadStoreSession,
} from '@tollgate/read-store';
import {
  BILLING_EVENT_TYPES,
  FAILURE_EVENT_TYPES,
  LOG_EVENT_TYPES,
  LOG_IMPORT_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type BillingEvent,
  type LogEvent,
  type LogImported,
  type RequestFailed,
  type TaskRefunded,
  type UsageArchived,
  type UsageEvent,
  type UserImported,
  type UserRegistered,
  type UserRenamed,
} from '@tollgate/domain';
import {
  ALL_TOTALS,
  LOG_TOTALS,
  LOGS,
  LOG_RETENTION,
  LOG_USERS,
  REFUND_ROWS,
  RETAINED_FROM,
  userTotalsId,
  type LogRow,
  type LogRowParts,
  type LogRetentionDocument,
  type LogTotalsDocument,
  type LogUserDocument,
} from './log.document';
import {
  baseRow,
  billingRow,
  consumptionParts,
  errorRow,
  importedRow,
  refundRow,
} from './log-rows';
import { logStore } from './log-store';

type Source =
  | UsageArchived
  | BillingEvent
  | UsageEvent
  | RequestFailed
  | TaskRefunded
  | LogEvent
  | UserRegistered
  | UserImported
  | UserRenamed;
/** The events that become a row. */
type RowSource = BillingEvent | UsageEvent | RequestFailed | TaskRefunded | LogImported;
/** The events written in batches: the receipts, failures, refunds and imported rows. */
const BATCHED_TYPES = [
  ...USAGE_EVENT_TYPES,
  ...FAILURE_EVENT_TYPES,
  ...TASK_REFUND_EVENT_TYPES,
  ...LOG_IMPORT_EVENT_TYPES,
];

/** Usernames, read once per batch (a batch of receipts is mostly a few users' requests). */
const usernames = new BatchMemo<string>();

function usernameOf(userId: number, session: ReadStoreSession): string | Promise<string> {
  return usernames.get(session, String(userId), async () => {
    const user = await session.collection<LogUserDocument>(LOG_USERS).get(String(userId));
    return user?.username ?? '';
  });
}

/**
 * logs: one row per balance-changing event — 1 top-up (redemption), 2 consumption (RequestRelayed
 * receipts), 3 admin (quota edits), 4 system (new-user grant, invitation rewards, aff transfers,
 * task refunds) — and 5 error per failed call (RequestFailed, no charge). `log_totals` = Σ consumption rows − Σ task refund rows (the charge given back).
 * The row id is the event's `$all` position: stable across rebuilds, newest = highest. A
 * LogsCleared event drops the rows before its time (the log stream keeps who cleared what). A
 * UsageArchived drops the consumption rows up to the end of the archived hour (its receipts are
 * gone from the live store, a rebuild would not make them) and moves `log_retention` on.
 */
export const logsProjection: Projection = {
  name: 'logs',
  // 2: log_totals. 3: the cache and reasoning counts in `other`.
  // 4: task charges' content (action, task id); TaskRefunded rows, subtracted from log_totals.
  // 5: LogImported (a one-api / new-api log row, with its own time and username).
  // 6: token_id, group and request_id on each row (new-api's columns).
  // 7: RequestFailed error rows (type 5).
  // 8: the stored row packed (stored-log.ts), its id in `_id`; fewer indexes.
  version: 8,
  collections: [
    {
      name: LOGS,
      // A row is put once and never changed: its index keys need not be stored beside it.
      writeOnce: true,
      // Stored keys (stored-log.ts). Newest first is `_id` descending: the primary key answers the
      // unfiltered list, and each index below ends with it.
      indexes: [
        // A user's own rows (/api/log/self, its search and stat).
        { fields: { u: 1, _id: -1 } },
        // The admin's username filter on a large log (S8) walks this index instead of every row.
        { fields: { n: 1, _id: -1 } },
        // GET /api/log/token: one token's latest rows.
        { fields: { tk: 1, _id: -1 } },
        // A time range (the list's, the stat's, the clear's). The stat's sums (rpm/tpm over the
        // last minute, quota over a range) read only this index.
        { fields: { t: 1, y: 1, q: 1, p: 1, c: 1 } },
      ],
    },
    { name: LOG_USERS },
    { name: LOG_TOTALS },
    { name: LOG_RETENTION },
  ],
  eventTypes: [
    'UserRegistered',
    'UserImported',
    'UserRenamed',
    ...BILLING_EVENT_TYPES,
    ...BATCHED_TYPES,
    ...LOG_EVENT_TYPES,
    'UsageArchived',
  ],
  async apply(recorded, session) {
    const event = { type: recorded.type, data: recorded.data } as Source;
    const users = session.collection<LogUserDocument>(LOG_USERS);
    switch (event.type) {
      case 'UserRegistered':
      case 'UserImported': {
        await users.put({ _id: String(event.data.userId), username: event.data.username });
        usernames.set(session, String(event.data.userId), event.data.username);
        // The totals exist before the first receipt: their increments are guarded updates.
        const totals = session.collection<LogTotalsDocument>(LOG_TOTALS);
        await totals.put({ _id: userTotalsId(event.data.userId), quota: 0, source_position: 0 });
        if (!(await totals.get(ALL_TOTALS)))
          await totals.put({ _id: ALL_TOTALS, quota: 0, source_position: 0 });
        return;
      }
      case 'UserRenamed':
        await users.put({ _id: String(event.data.userId), username: event.data.to });
        usernames.set(session, String(event.data.userId), event.data.to);
        return;
      case 'LogsCleared': {
        const before = { created_at: { $lt: event.data.before } };
        const rows = {
          deleted: before,
          consumed: { ...before, type: LogType.Consume },
          refunded: { ...REFUND_ROWS, ...before },
        };
        await dropRows(session, rows, Number(recorded.position.commit));
        return;
      }
      case 'UsageArchived':
        return archived(event.data, session, Number(recorded.position.commit));
      default:
        await putRow(event, recorded, session);
    }
  },
  // Receipts: the row as any other, and its quota into the totals, merged per batch. A task
  // refund's row (type 4) takes its quota back out of the totals: the consumption was given back.
  batched: {
    eventTypes: BATCHED_TYPES,
    async apply(recorded, writes, session) {
      const event = { type: recorded.type, data: recorded.data } as
        UsageEvent | RequestFailed | TaskRefunded | LogImported;
      const row = await putRow(event, recorded, session);
      const position = Number(recorded.position.commit);
      if (row?.type === LogType.Consume) addToTotals(writes, row.user_id, row.quota, position);
      else if (row && event.type === 'TaskRefunded')
        addToTotals(writes, row.user_id, -row.quota, position);
    },
  },
};

async function putRow(
  event: RowSource,
  recorded: RecordedEvent,
  session: ReadStoreSession,
): Promise<Omit<LogRow, 'other'> | null> {
  const built = await toRow(event, recorded, session);
  if (!built) return null;
  if ('row' in built) {
    await logStore(session).putParts(built);
    return built.row;
  }
  await logStore(session).put(built);
  return built;
}

function addToTotals(writes: BatchWrites, userId: number, quota: number, position: number): void {
  for (const id of [ALL_TOTALS, userTotalsId(userId)]) {
    writes.update(LOG_TOTALS, id, { $inc: { quota } }, { position });
  }
}

/**
 * The row of a balance-changing event (log-rows.ts words each); null when it makes none. A
 * receipt's keeps `other` as its object: the stored row packs it without making its text.
 */
async function toRow(
  event: RowSource,
  recorded: RecordedEvent,
  session: ReadStoreSession,
): Promise<LogRow | LogRowParts | null> {
  const id = Number(recorded.position.commit);
  if (event.type === 'LogImported') return importedRow(id, event.data);
  const userId = event.data.userId;
  const base = baseRow(id, recorded, userId, await usernameOf(userId, session));
  switch (event.type) {
    case 'RequestRelayed':
      return consumptionParts(event.data, base);
    case 'TaskRefunded':
      return refundRow(event.data, base);
    case 'RequestFailed':
      return errorRow(event.data, base);
    default:
      return billingRow(event, base, recorded);
  }
}

const HOUR_MS = 3_600_000;

/**
 * The relayed calls' consumption rows up to the end of an archived hour (earlier hours were
 * archived before it). A task's charge row names its task in `content` and stays: task streams
 * are never archived.
 */
async function archived(
  archive: UsageArchived['data'],
  session: ReadStoreSession,
  position: number,
): Promise<void> {
  const end = Math.floor((archive.hourStart + HOUR_MS) / 1000);
  const rows = { type: LogType.Consume, created_at: { $lt: end }, content: { $exists: false } };
  await dropRows(session, { deleted: rows, consumed: rows, refunded: null }, position);
  // Failed calls' rows came from the same usage streams (they charged nothing: no totals).
  await logStore(session).deleteMany({ type: LogType.Error, created_at: { $lt: end } });
  await session
    .collection<LogRetentionDocument>(LOG_RETENTION)
    .update(RETAINED_FROM, { $max: { at: end } }, { upsert: true });
}

/**
 * Deletes log rows and takes out of log_totals what they had added: their consumption less their
 * refunds (each total a guarded update, at most once per event).
 */
async function dropRows(
  session: ReadStoreSession,
  rows: { deleted: Filter; consumed: Filter; refunded: Filter | null },
  position: number,
): Promise<void> {
  const logs = logStore(session);
  const consumed = await logs.sum(rows.consumed, 'user_id', ['quota']);
  const refunded = rows.refunded ? await logs.sum(rows.refunded, 'user_id', ['quota']) : [];
  const cleared = new Map<number, number>();
  for (const [groups, sign] of [
    [consumed, 1],
    [refunded, -1],
  ] as const)
    for (const group of groups) {
      const userId = group._id as number;
      cleared.set(userId, (cleared.get(userId) ?? 0) + sign * (group.sums['quota'] ?? 0));
    }
  const totals = session.collection<LogTotalsDocument>(LOG_TOTALS);
  const subtract = (id: string, quota: number) =>
    totals.updateMany(
      { _id: id, source_position: { $lt: position } },
      { $inc: { quota: -quota }, $set: { source_position: position } },
    );
  for (const [userId, quota] of cleared) await subtract(userTotalsId(userId), quota);
  await subtract(
    ALL_TOTALS,
    [...cleared.values()].reduce((sum, quota) => sum + quota, 0),
  );
  await logs.deleteMany(rows.deleted);
}
