import { setImmediate as nextTick } from 'node:timers/promises';
import type { LedgerMismatchDto, LedgerReportDto } from '@tollgate/contracts';
import {
  comparePositions,
  serializePosition,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '@tollgate/event-store';
import type { Doc, ReadStore } from '@tollgate/read-store';
import { CHANNELS } from '../channels/channel.document';
import { USERS } from '../users/user.document';
import { TOKENS } from '../tokens/token.document';
import { LEDGER_EVENT_TYPES, LedgerFold } from './ledger-fold';

/** What the verifier reads of the relay's balance book (BalanceBook). */
export interface BookView {
  settledBalance(userId: number): number | undefined;
  tokenSettledRemaining(tokenId: number): number | undefined;
  tokenUsed(tokenId: number): number | undefined;
}

export interface VerifyOptions {
  /** The live book (the endpoint) or one replayed from the log (the CLI); none: not compared. */
  readonly book?: BookView;
  /** Fed every event scanned, before the fold (the CLI replays its book this way). */
  readonly onEvents?: (events: readonly RecordedEvent[]) => void;
  readonly onProgress?: (done: number, total: number) => void;
  /** Events read per step; between steps the event loop runs (the relay is never stalled). */
  readonly chunk?: number;
  /** Called after the scan, before the read models are read (the endpoint waits for projections). */
  readonly beforeCompare?: (position: Position | null) => Promise<void>;
}

type Counted = Doc & { id: number; source_position?: number; [key: string]: unknown };

const PAGE = 500;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The ledger check: folds the log (LedgerFold) up to its head at the start, then compares every
 * user's quota / used_quota / request_count / aff_quota, every live token's remain_quota and
 * used_quota, every channel's used_quota in the read models, and the balance book, with what the
 * events sum to. A document already past the scanned head (a live gateway) is skipped, not failed.
 */
export async function verifyLedger(
  events: EventStore,
  readStore: ReadStore,
  options: VerifyOptions = {},
): Promise<LedgerReportDto> {
  const started = Date.now();
  const head = await events.headPosition();
  const fold = new LedgerFold();
  let scanned = 0;
  let cursor: Position | 'start' = 'start';
  const total = head ? Number(head.commit) : 0;
  options.onProgress?.(0, total);
  while (head) {
    const batch = await events.readAll({
      fromPosition: cursor,
      maxCount: options.chunk ?? 2000,
      filter: { eventTypes: LEDGER_EVENT_TYPES },
    });
    const upToHead = batch.filter((e) => comparePositions(e.position, head) <= 0);
    options.onEvents?.(upToHead);
    for (const event of upToHead) fold.apply(event.type, event.data);
    scanned += upToHead.length;
    const last = batch.at(-1);
    if (!last || upToHead.length < batch.length) break;
    cursor = last.position;
    options.onProgress?.(Number(last.position.commit), total);
    await nextTick();
  }
  options.onProgress?.(total, total);
  await options.beforeCompare?.(head);

  const headCommit = head ? Number(head.commit) : 0;
  const mismatches: LedgerMismatchDto[] = [];
  let skipped = 0;
  const checked = { users: 0, tokens: 0, channels: 0 };
  const check = (
    base: Omit<LedgerMismatchDto, 'field' | 'expected' | 'actual' | 'source'>,
    source: LedgerMismatchDto['source'],
    field: string,
    expected: number,
    actual: unknown,
  ) => {
    const value = typeof actual === 'number' ? actual : null;
    if (value !== expected) mismatches.push({ ...base, field, expected, actual: value, source });
  };
  /** Every document of a collection, a page at a time. */
  const eachDoc = async (collection: string, visit: (doc: Counted) => void) => {
    for (let skip = 0; ; skip += PAGE) {
      const docs = await readStore
        .collection<Counted>(collection)
        .find({}, { sort: { id: 1 }, skip, limit: PAGE });
      for (const doc of docs) {
        if ((doc.source_position ?? 0) > headCommit) skipped += 1;
        else visit(doc);
      }
      if (docs.length < PAGE) return;
      await nextTick();
    }
  };

  await eachDoc(USERS, (doc) => {
    checked.users += 1;
    const sums = fold.users.get(doc.id) ?? {
      credited: 0,
      charged: 0,
      requests: 0,
      aff: 0,
      billingEvents: 0,
    };
    const base = {
      kind: 'user' as const,
      id: doc.id,
      name: text(doc['username']),
      streams: [`billing-${doc.id}`, 'usage-*'],
      events: sums.billingEvents + sums.requests,
    };
    check(base, 'read_model', 'quota', sums.credited - sums.charged, doc['quota']);
    check(base, 'read_model', 'used_quota', sums.charged, doc['used_quota']);
    check(base, 'read_model', 'request_count', sums.requests, doc['request_count']);
    check(base, 'read_model', 'aff_quota', sums.aff, doc['aff_quota']);
    if (options.book)
      check(
        base,
        'balance_book',
        'quota',
        sums.credited - sums.charged,
        options.book.settledBalance(doc.id),
      );
  });
  await eachDoc(TOKENS, (doc) => {
    checked.tokens += 1;
    const sums = fold.tokens.get(doc.id);
    const base = {
      kind: 'token' as const,
      id: doc.id,
      name: text(doc['name']),
      streams: [`token-${doc.id}`, 'usage-*'],
      events: (sums?.tokenEvents ?? 0) + (sums?.requests ?? 0),
    };
    const remain = sums ? sums.cap - sums.chargedSinceCap : 0;
    check(base, 'read_model', 'remain_quota', remain, doc['remain_quota']);
    check(base, 'read_model', 'used_quota', sums?.used ?? 0, doc['used_quota']);
    if (options.book) {
      check(base, 'balance_book', 'used_quota', sums?.used ?? 0, options.book.tokenUsed(doc.id));
      check(
        base,
        'balance_book',
        'remain_quota',
        remain,
        options.book.tokenSettledRemaining(doc.id),
      );
    }
  });
  await eachDoc(CHANNELS, (doc) => {
    checked.channels += 1;
    const sums = fold.channels.get(doc.id);
    check(
      {
        kind: 'channel',
        id: doc.id,
        name: text(doc['name']),
        streams: ['usage-*'],
        events: sums?.requests ?? 0,
      },
      'read_model',
      'used_quota',
      sums?.used ?? 0,
      doc['used_quota'],
    );
  });
  return {
    ok: mismatches.length === 0,
    events: scanned,
    position: head ? serializePosition(head) : null,
    checked,
    skipped,
    mismatches,
    duration_ms: Date.now() - started,
  };
}
