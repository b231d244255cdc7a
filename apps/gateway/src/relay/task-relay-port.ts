/**
 * What the task relays (Midjourney, Suno: apps/gateway/src/tasks) need of the relay, in one place:
 * the relay module provides TASK_RELAY_PORT (task-relay-adapter.ts) and the task module reaches the
 * relay through this file only. Its answers, refusals and billing are the relay's own: the same
 * key admission, routing, reservations and error shapes as a /v1 call.
 */
import type { RelayError } from '@tollgate/relay';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Dispatcher } from 'undici';
import type { OptionsCache } from '../options/options.cache';
import type { Lang } from '../shared/i18n/messages';
import type { Caller } from './relay-admission';
import type { Reservation, RoutedChannel } from './relay-ports';
import type { RelaySettings } from './relay-settings';

export type { Caller } from './relay-admission';
export type { Reservation, RoutedChannel } from './relay-ports';
export type { RelaySettings } from './relay-settings';
// Pure helpers: the relay's HTTP answers and upstream reads, shared as they are.
export {
  CORS_HEADERS,
  JSON_CONTENT_TYPE,
  RELAY_JSON_BODY_LIMIT,
  REQUEST_ID_HEADER,
  relayError,
  sendBytes,
  sendError,
  sendJson,
} from './relay-http';
export { keyOfAuthorization } from './relay-admission';
export { leasesOf } from './relay-ports';
export { headerText, readBounded } from './upstream-io';

export const TASK_RELAY_PORT = Symbol('TASK_RELAY_PORT');

/** A price reserved on the caller before the upstream is called, or why it could not be. */
export type TaskReservation =
  | { readonly ok: true; readonly reservation: Reservation | undefined }
  | { readonly ok: false; readonly reason: 'user_quota' | 'token_quota' }
  /** A periodic budget would be passed: answered 429 `budget_exceeded` (docs/budgets.md). */
  | { readonly ok: false; readonly reason: 'budget'; readonly error: RelayError };

/** Adds routes to the relay's Fastify scope (raw bodies, its parsers and error handler). */
export type RelayRouteRegistrar = (scope: FastifyInstance) => void;

export interface TaskRelayPort {
  /** Registered with the relay's own routes; to be called before the application starts. */
  addRoutes(registrar: RelayRouteRegistrar): void;
  /** The onRequest hook admitting the key `keyOf` reads before the body, as every relay call. */
  keyGate(keyOf: (request: FastifyRequest) => string | undefined): onRequestHookHandler;
  /** The caller the key gate admitted. */
  callerOf(request: FastifyRequest): Caller;

  settings(): RelaySettings;
  options(): OptionsCache;
  /** The group the caller's token asks for, as the relay resolves it. */
  groupOf(caller: Caller, settings: RelaySettings): string;
  /** The refusal of a model the caller's token may not use. */
  modelRefusal(lang: Lang, caller: Caller, model: string): RelayError | undefined;
  /** The relay's answer when no channel serves the model in the group. */
  unroutable(lang: Lang, caller: Caller, group: string, model: string): RelayError;

  channel(id: number): RoutedChannel | undefined;
  /**
   * The channel of attempt `attempt`: the admin's pinned one (first attempt only, enabled), else by
   * priority and weight among the group's channels for the model, skipping those already tried.
   */
  pickChannel(
    caller: Caller,
    group: string,
    model: string,
    attempt?: number,
    tried?: readonly number[],
  ): RoutedChannel | undefined;
  disableChannel(channelId: number, reason: string, model: string): Promise<unknown>;

  /** Reserves `quota` on the caller's user and token (nothing for a free call). */
  reserve(requestId: string, caller: Caller, quota: number, lang: Lang): Promise<TaskReservation>;
  settle(reservation: Reservation, quota: number): void;
  release(reservation: Reservation): void;

  /** The relay's keep-alive pool for an upstream origin. */
  upstreamPool(origin: string): Dispatcher;
}
