/**
 * What the relay reads and calls: the parts of the balance book and
 * token directory (tokens/billing), the usage appender, the routing table (channels), and the
 * commands those modules offer. The shapes are the hot caches' own types (type-only imports, so
 * no module is loaded); the ports pick only the methods the relay calls, which keeps test doubles
 * small. All reads are synchronous in-memory look-ups; the only I/O is the upstream call and the
 * batched usage append.
 */
import type { Actor, RequestFailed, RequestRelayed } from '@tollgate/domain';
import type { BalanceBook } from '../billing/balance-book';
import type { BalanceLeases } from '../billing/balance-leases';
import type { RoutingTable } from '../channels/routing-table';
import type { ScaleOutLimits } from '../rate-limits/scale-out-limits';
import type { TokenDirectory } from '../tokens/token-directory';

import type { Reservation } from '../billing/balance-terms';

export type { LimitReason, Reservation, ReserveResult } from '../billing/balance-terms';
export type { RoutedChannel } from '../channels/routing-table';
export type { RelayToken, RelayUser } from '../tokens/token-directory';

/** `tokenUsed` (Σ charged to the token, dashboard billing usage) is optional: not every book keeps it. */
export type BalanceBookPort = Pick<
  BalanceBook,
  | 'reserve'
  | 'settle'
  | 'release'
  | 'userBalance'
  | 'tokenRemaining'
  | 'tokenSettledRemaining'
  | 'onFreed'
> &
  Partial<Pick<BalanceBook, 'tokenUsed'>>;

/** Scale-out: the one awaited step of a reservation, taken when this process's lease falls short. */
export type BalanceLeasesPort = Pick<BalanceLeases, 'active' | 'reserve'>;

/** Scale-out: the rate limits counted across processes (awaited only when a slice is taken). */
export type ScaleOutLimitsPort = Pick<
  ScaleOutLimits,
  'active' | 'admitToken' | 'admitUser' | 'tokenUsed' | 'userSucceeded'
>;

type LeaseIds = Pick<
  RequestRelayed['data'],
  'leaseId' | 'tokenLeaseId' | 'budgetLeaseId' | 'tokenBudgetLeaseId'
>;

/** The leases a reservation drew on, as its receipt names them (none in single-process mode). */
export const leasesOf = (reservation: Reservation): LeaseIds => {
  const ids: { -readonly [K in keyof LeaseIds]: LeaseIds[K] } = {};
  if (reservation.leaseId) ids.leaseId = reservation.leaseId;
  if (reservation.tokenLeaseId) ids.tokenLeaseId = reservation.tokenLeaseId;
  if (reservation.budgetLeaseId) ids.budgetLeaseId = reservation.budgetLeaseId;
  if (reservation.tokenBudgetLeaseId) ids.tokenBudgetLeaseId = reservation.tokenBudgetLeaseId;
  return ids;
};

export type TokenDirectoryPort = Pick<TokenDirectory, 'byKey' | 'user'>;

export interface UsageAppenderPort {
  append(
    receipt: RequestRelayed['data'],
    meta: { ip?: string; actor: Actor; correlationId: string },
  ): Promise<unknown>;
  /** A failed call's RequestFailed (the error log row); absent in doubles that record none. */
  appendFailure?(
    failure: RequestFailed['data'],
    meta: { ip?: string; actor: Actor; correlationId: string },
  ): Promise<unknown>;
}

export type RoutingTablePort = Pick<RoutingTable, 'candidates' | 'channel' | 'models'>;

/** State changes the relay asks for; each module records them as events through its commands. */
export interface RelayCommandsPort {
  markTokenExpired(tokenId: number): Promise<unknown>;
  markTokenExhausted(tokenId: number): Promise<unknown>;
  /** `model`: the model of the failing call (the channel alert names it). */
  disableChannel(channelId: number, reason: string, model?: string): Promise<unknown>;
}

export const BALANCE_BOOK_PORT = Symbol('BALANCE_BOOK_PORT');
export const BALANCE_LEASES_PORT = Symbol('BALANCE_LEASES_PORT');
export const SCALE_OUT_LIMITS_PORT = Symbol('SCALE_OUT_LIMITS_PORT');
export const TOKEN_DIRECTORY_PORT = Symbol('TOKEN_DIRECTORY_PORT');
export const USAGE_APPENDER_PORT = Symbol('USAGE_APPENDER_PORT');
export const ROUTING_TABLE_PORT = Symbol('ROUTING_TABLE_PORT');
export const RELAY_COMMANDS_PORT = Symbol('RELAY_COMMANDS_PORT');
