/**
 * What the relay reads and calls, declared structurally (coord/RELAY-INTERFACES.md) so the relay is
 * written against shapes, not modules: the balance book and token directory (tokens/billing), the
 * usage appender, the routing table (channels), and the commands those modules offer. All reads are
 * synchronous in-memory look-ups; the only I/O is the upstream call and the batched usage append.
 */
import type { Actor, RequestRelayed } from '@tollgate/domain';

export interface Reservation {
  readonly requestId: string;
  readonly userId: number;
  readonly tokenId: number;
  readonly amount: number;
}

export type ReserveResult =
  | { readonly ok: true; readonly reservation: Reservation }
  | { readonly ok: false; readonly reason: 'user_quota' | 'token_quota' };

export interface BalanceBookPort {
  reserve(requestId: string, userId: number, tokenId: number, amount: number): ReserveResult;
  settle(reservation: Reservation, actual: number): number;
  release(reservation: Reservation): void;
  userBalance(userId: number): number | undefined;
  tokenRemaining(tokenId: number): number | undefined;
  /** Σ charged to the token (dashboard billing usage), when the book keeps it. */
  tokenUsed?(tokenId: number): number | undefined;
}

export interface RelayToken {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly status: 1 | 2 | 3 | 4;
  readonly expiredTime: number;
  readonly unlimitedQuota: boolean;
  readonly modelLimitsEnabled: boolean;
  readonly modelLimits: readonly string[];
  readonly allowIps: readonly string[];
  readonly group: string;
  readonly rateLimits: { readonly rpm: number; readonly tpm: number; readonly concurrency: number };
}

export interface RelayUser {
  readonly id: number;
  readonly username: string;
  readonly status: number;
  readonly role: number;
  readonly group: string;
}

export interface TokenDirectoryPort {
  byKey(key: string): RelayToken | undefined;
  user(userId: number): RelayUser | undefined;
}

export interface UsageAppenderPort {
  append(
    receipt: RequestRelayed['data'],
    meta: { ip?: string; actor: Actor; correlationId: string },
  ): Promise<unknown>;
}

export interface RoutedChannel {
  readonly id: number;
  readonly type: number;
  readonly name: string;
  readonly status: 1 | 2 | 3;
  readonly baseUrl: string;
  readonly key: string;
  readonly models: readonly string[];
  readonly groups: readonly string[];
  readonly priority: number;
  readonly weight: number;
  readonly modelMapping: Readonly<Record<string, string>>;
  readonly statusCodeMapping: Readonly<Record<string, string>>;
  readonly other: string;
  readonly autoBan: boolean;
  readonly openaiOrganization: string;
  readonly testModel: string;
  readonly setting: Readonly<Record<string, unknown>>;
}

export interface RoutingTablePort {
  candidates(group: string, model: string): readonly RoutedChannel[];
  channel(id: number): RoutedChannel | undefined;
  models(group: string): readonly string[];
}

/** State changes the relay asks for; each module records them as events through its commands. */
export interface RelayCommandsPort {
  markTokenExpired(tokenId: number): Promise<unknown>;
  markTokenExhausted(tokenId: number): Promise<unknown>;
  disableChannel(channelId: number, reason: string): Promise<unknown>;
}

export const BALANCE_BOOK_PORT = Symbol('BALANCE_BOOK_PORT');
export const TOKEN_DIRECTORY_PORT = Symbol('TOKEN_DIRECTORY_PORT');
export const USAGE_APPENDER_PORT = Symbol('USAGE_APPENDER_PORT');
export const ROUTING_TABLE_PORT = Symbol('ROUTING_TABLE_PORT');
export const RELAY_COMMANDS_PORT = Symbol('RELAY_COMMANDS_PORT');
