import { Inject, Injectable, Optional } from '@nestjs/common';
import { selectChannel } from '@tollgate/relay';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Dispatcher } from 'undici';
import type { OptionsCache } from '../options/options.cache';
import { type Lang, pickRelayLang } from '../shared/i18n/messages';
import { budgetRefusal, isBudgetRefusal } from './budget-refusal';
import { OPENAI_CLIENT } from './client-wire';
import { type Caller, RelayAdmission } from './relay-admission';
import { callerOf, RelayGate } from './relay-gate';
import {
  BALANCE_BOOK_PORT,
  BALANCE_LEASES_PORT,
  type BalanceBookPort,
  type BalanceLeasesPort,
  RELAY_COMMANDS_PORT,
  type RelayCommandsPort,
  type Reservation,
  type RoutedChannel,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
} from './relay-ports';
import { RelayRouteExtensions } from './relay-route-extensions';
import { groupFor, modelRefusal, pinnedChannel, unroutable } from './relay-routing';
import {
  type OptionsSource,
  RELAY_OPTIONS_SOURCE,
  type RelaySettings,
  RelaySettingsView,
} from './relay-settings';
import type { RelayRouteRegistrar, TaskRelayPort, TaskReservation } from './task-relay-port';
import { UpstreamPools } from './upstream-pools';

/** The relay's side of TASK_RELAY_PORT: its admission, settings, routing, balance and pools. */
@Injectable()
export class TaskRelayAdapter implements TaskRelayPort {
  constructor(
    private readonly extensions: RelayRouteExtensions,
    private readonly admission: RelayAdmission,
    private readonly gate: RelayGate,
    private readonly view: RelaySettingsView,
    @Inject(RELAY_OPTIONS_SOURCE) private readonly optionsSource: OptionsSource,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    @Inject(RELAY_COMMANDS_PORT) private readonly commands: RelayCommandsPort,
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    private readonly pools: UpstreamPools,
    @Optional() @Inject(BALANCE_LEASES_PORT) private readonly leases?: BalanceLeasesPort,
  ) {}

  addRoutes(registrar: RelayRouteRegistrar): void {
    this.extensions.add(registrar);
  }

  keyGate(keyOf: (request: FastifyRequest) => string | undefined): onRequestHookHandler {
    return this.gate.before(
      'call',
      (request) =>
        this.admission.admitToken(
          keyOf(request),
          request.ip,
          pickRelayLang(request.headers['accept-language']),
          Date.now(),
        ),
      () => OPENAI_CLIENT,
    );
  }

  callerOf(request: FastifyRequest): Caller {
    return callerOf(request);
  }

  settings(): RelaySettings {
    return this.view.current();
  }

  options(): OptionsCache {
    return this.optionsSource();
  }

  groupOf(caller: Caller, settings: RelaySettings): string {
    return groupFor(caller, caller.token?.group ?? '', settings);
  }

  modelRefusal(lang: Lang, caller: Caller, model: string) {
    return modelRefusal(lang, caller.token, model);
  }

  unroutable(lang: Lang, caller: Caller, group: string, model: string) {
    return unroutable(lang, caller, group, model);
  }

  channel(id: number): RoutedChannel | undefined {
    return this.routing.channel(id);
  }

  pickChannel(
    caller: Caller,
    group: string,
    model: string,
    attempt = 0,
    tried: readonly number[] = [],
  ): RoutedChannel | undefined {
    const pinned = caller.pinnedChannelId;
    if (pinned !== undefined)
      return attempt === 0 ? pinnedChannel(this.routing, pinned) : undefined;
    return selectChannel(this.routing.candidates(group, model), {
      attempt,
      tried: new Set(tried),
      isCooling: () => false,
      rng: Math.random,
    });
  }

  disableChannel(channelId: number, reason: string, model: string): Promise<unknown> {
    return this.commands.disableChannel(channelId, reason, model);
  }

  async reserve(
    requestId: string,
    caller: Caller,
    quota: number,
    lang: Lang,
  ): Promise<TaskReservation> {
    if (quota <= 0) return { ok: true, reservation: undefined };
    const args = [requestId, caller.user.id, caller.token?.id ?? 0, quota] as const;
    // Scale-out: the reserve takes the lease this process lacks first.
    const result = this.leases?.active
      ? await this.leases.reserve(...args)
      : this.book.reserve(...args);
    if (result.ok) return { ok: true, reservation: result.reservation };
    if (isBudgetRefusal(result))
      return { ok: false, reason: 'budget', error: budgetRefusal(lang, result) };
    return { ok: false, reason: result.reason };
  }

  settle(reservation: Reservation, quota: number): void {
    this.book.settle(reservation, quota);
  }

  release(reservation: Reservation): void {
    this.book.release(reservation);
  }

  upstreamPool(origin: string): Dispatcher {
    return this.pools.pool(origin);
  }
}
