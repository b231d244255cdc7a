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
  const { head, fold, scanned } = await scanLedger(events, options);
  await options.beforeCompare?.(head);
  const headCommit = head ? Number(head.commit) : 0;
  const mismatches = new Mismatches();
  const each = (collection: string, visit: (doc: Counted) => void) =>
    eachDocUpTo(readStore, collection, headCommit, visit);
  const users = await each(USERS, (doc) => checkUser(doc, fold, options.book, mismatches));
  const tokens = await each(TOKENS, (doc) => checkToken(doc, fold, options.book, mismatches));
  const channels = await each(CHANNELS, (doc) => checkChannel(doc, fold, mismatches));
  return {
    ok: mismatches.list.length === 0,
    events: scanned,
    position: head ? serializePosition(head) : null,
    checked: { users: users.visited, tokens: tokens.visited, channels: channels.visited },
    skipped: users.skipped + tokens.skipped + channels.skipped,
    mismatches: mismatches.list,
    duration_ms: Date.now() - started,
  };
}

/** Folds the ledger's events up to the head at the start, a chunk at a time. */
async function scanLedger(
  events: EventStore,
  options: VerifyOptions,
): Promise<{ head: Position | null; fold: LedgerFold; scanned: number }> {
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
    for (const event of upToHead) fold.apply(event.type, event.data, event.streamId);
    scanned += upToHead.length;
    const last = batch.at(-1);
    if (!last || upToHead.length < batch.length) break;
    cursor = last.position;
    options.onProgress?.(Number(last.position.commit), total);
    await nextTick();
  }
  options.onProgress?.(total, total);
  return { head, fold, scanned };
}

/**
 * Every document of a collection, a page at a time: those at or before the scanned head are
 * visited, those past it (written since the scan began) only counted.
 */
async function eachDocUpTo(
  readStore: ReadStore,
  collection: string,
  headCommit: number,
  visit: (doc: Counted) => void,
): Promise<{ visited: number; skipped: number }> {
  let visited = 0;
  let skipped = 0;
  for (let skip = 0; ; skip += PAGE) {
    const docs = await readStore
      .collection<Counted>(collection)
      .find({}, { sort: { id: 1 }, skip, limit: PAGE });
    for (const doc of docs) {
      if ((doc.source_position ?? 0) > headCommit) skipped += 1;
      else {
        visited += 1;
        visit(doc);
      }
    }
    if (docs.length < PAGE) return { visited, skipped };
    await nextTick();
  }
}

type MismatchSubject = Omit<LedgerMismatchDto, 'field' | 'expected' | 'actual' | 'source'>;

/** The mismatches found: one per field whose value is not what the events sum to. */
class Mismatches {
  readonly list: LedgerMismatchDto[] = [];

  check(
    subject: MismatchSubject,
    source: LedgerMismatchDto['source'],
    field: string,
    expected: number,
    actual: unknown,
  ): void {
    const value = typeof actual === 'number' ? actual : null;
    if (value !== expected) this.list.push({ ...subject, field, expected, actual: value, source });
  }
}

const NO_USER_SUMS = { credited: 0, charged: 0, requests: 0, aff: 0, billingEvents: 0 };

function checkUser(
  doc: Counted,
  fold: LedgerFold,
  book: BookView | undefined,
  mismatches: Mismatches,
): void {
  const sums = fold.users.get(doc.id) ?? NO_USER_SUMS;
  const subject: MismatchSubject = {
    kind: 'user',
    id: doc.id,
    name: text(doc['username']),
    streams: [`billing-${doc.id}`, 'usage-*'],
    events: sums.billingEvents + sums.requests,
  };
  const balance = sums.credited - sums.charged;
  mismatches.check(subject, 'read_model', 'quota', balance, doc['quota']);
  mismatches.check(subject, 'read_model', 'used_quota', sums.charged, doc['used_quota']);
  mismatches.check(subject, 'read_model', 'request_count', sums.requests, doc['request_count']);
  mismatches.check(subject, 'read_model', 'aff_quota', sums.aff, doc['aff_quota']);
  if (book)
    mismatches.check(subject, 'balance_book', 'quota', balance, book.settledBalance(doc.id));
}

function checkToken(
  doc: Counted,
  fold: LedgerFold,
  book: BookView | undefined,
  mismatches: Mismatches,
): void {
  const sums = fold.tokens.get(doc.id);
  const subject: MismatchSubject = {
    kind: 'token',
    id: doc.id,
    name: text(doc['name']),
    streams: [`token-${doc.id}`, 'usage-*'],
    events: (sums?.tokenEvents ?? 0) + (sums?.requests ?? 0),
  };
  const remain = sums ? sums.cap - sums.chargedSinceCap : 0;
  const used = sums?.used ?? 0;
  mismatches.check(subject, 'read_model', 'remain_quota', remain, doc['remain_quota']);
  mismatches.check(subject, 'read_model', 'used_quota', used, doc['used_quota']);
  if (book) {
    mismatches.check(subject, 'balance_book', 'used_quota', used, book.tokenUsed(doc.id));
    const bookRemain = book.tokenSettledRemaining(doc.id);
    mismatches.check(subject, 'balance_book', 'remain_quota', remain, bookRemain);
  }
}

function checkChannel(doc: Counted, fold: LedgerFold, mismatches: Mismatches): void {
  const sums = fold.channels.get(doc.id);
  const subject: MismatchSubject = {
    kind: 'channel',
    id: doc.id,
    name: text(doc['name']),
    streams: ['usage-*'],
    events: sums?.requests ?? 0,
  };
  mismatches.check(subject, 'read_model', 'used_quota', sums?.used ?? 0, doc['used_quota']);
}
