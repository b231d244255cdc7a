import { ChannelStatus, type ChannelStatusValue } from '@tollgate/contracts';
import { Injectable, Logger } from '@nestjs/common';
import {
  CHANNEL_EVENT_TYPES,
  evolveChannel,
  initialChannelState,
  overridableMembers,
  type ChannelEvent,
  type ChannelState,
} from '@tollgate/domain';
import type { RecordedEvent } from '@tollgate/event-store';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';
import { SecretBox } from '../infrastructure/secret-box';
import { baseUrlOf } from './channel-upstream';
import { ROUTING_REBUILD_REQUESTED } from './channels.projection';

/** A channel as the relay needs it. */
export interface RoutedChannel {
  readonly id: number;
  readonly type: number;
  readonly name: string;
  readonly status: ChannelStatusValue;
  /** Already defaulted from the type table, no trailing slash. */
  readonly baseUrl: string;
  /** Decrypted, in memory only, never logged. */
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
  /** Members set on every request body sent upstream ({} = none). */
  readonly paramOverride: Readonly<Record<string, unknown>>;
}

const EMPTY: readonly never[] = Object.freeze([]);
const NOT_ROUTED: ReadonlySet<string> = new Set(['ChannelTested', 'ChannelBalanceUpdated']);

function parseObject<T>(text: string): Readonly<Record<string, T>> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, T>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The relay's routing table: group → model → enabled channels by priority, fed by the process's
 * cache subscription straight from the channel events (no read-model query on the relay path).
 * A change is visible here as soon as the feed delivers it; the command handlers wait for that.
 */
@Injectable()
export class RoutingTable implements HotCache {
  readonly name = 'routing-table';
  private readonly logger = new Logger(RoutingTable.name);
  /**
   * Test results and balances change nothing the relay routes by: left out, so a test-all run (or
   * the scheduled one) does not rebuild the whole index once per channel on the relay's loop.
   */
  readonly eventTypes: readonly string[] = [
    ...CHANNEL_EVENT_TYPES.filter((type) => !NOT_ROUTED.has(type)),
    ROUTING_REBUILD_REQUESTED,
  ];

  private readonly states = new Map<number, ChannelState>();
  private readonly routed = new Map<number, RoutedChannel>();
  /** The sealed key's hash each routed channel was decrypted from. */
  private readonly keyHashes = new Map<number, string>();
  private index = new Map<string, Map<string, readonly RoutedChannel[]>>();
  private modelsByGroup = new Map<string, readonly string[]>();

  constructor(
    private readonly secretBox: SecretBox,
    feed: CacheFeed,
  ) {
    feed.register(this);
  }

  apply(events: readonly RecordedEvent[]): void {
    const touched = new Set<number>();
    for (const recorded of events) {
      if (recorded.type === ROUTING_REBUILD_REQUESTED) {
        for (const id of this.states.keys()) touched.add(id);
        continue;
      }
      const event = { type: recorded.type, data: recorded.data } as ChannelEvent;
      const id = event.data.channelId;
      this.states.set(id, evolveChannel(this.states.get(id) ?? initialChannelState, event));
      touched.add(id);
    }
    if (touched.size === 0) return;
    for (const id of touched) this.refresh(id);
    this.rebuildIndex();
  }

  /** Enabled channels serving `model` in `group`, sorted by priority descending. */
  candidates(group: string, model: string): readonly RoutedChannel[] {
    return this.index.get(group)?.get(model) ?? EMPTY;
  }

  /** Any channel by id, whatever its status (pinned channels, tests). */
  channel(id: number): RoutedChannel | undefined {
    return this.routed.get(id);
  }

  /** Models reachable in a group (enabled channels), sorted. */
  models(group: string): readonly string[] {
    return this.modelsByGroup.get(group) ?? EMPTY;
  }

  /**
   * Every group → its reachable models (GET /api/pricing). A new map replaces it on each change, so
   * its identity tells a reader whether anything it derived is still current.
   */
  servedModels(): ReadonlyMap<string, readonly string[]> {
    return this.modelsByGroup;
  }

  /** Every channel the table holds (admin tasks: test all, update all balances). */
  all(): readonly RoutedChannel[] {
    return [...this.routed.values()].sort((a, b) => a.id - b.id);
  }

  private refresh(id: number): void {
    const state = this.states.get(id);
    if (!state || !state.exists || state.deleted) {
      this.states.delete(id);
      this.routed.delete(id);
      this.keyHashes.delete(id);
      return;
    }
    const previous = this.routed.get(id);
    const c = state.config;
    // Decrypt only when the sealed key changed: status changes and most updates keep it.
    const key =
      previous && this.keyHashes.get(id) === state.key.hash ? previous.key : this.reveal(state);
    this.keyHashes.set(id, state.key.hash);
    this.routed.set(
      id,
      Object.freeze({
        id,
        type: c.type,
        name: c.name,
        status:
          state.status === ChannelStatus.Enabled || state.status === ChannelStatus.ManuallyDisabled
            ? state.status
            : ChannelStatus.AutoDisabled,
        baseUrl: baseUrlOf(c.type, c.baseUrl),
        key,
        models: Object.freeze([...c.models]),
        groups: Object.freeze([...c.groups]),
        priority: c.priority,
        weight: c.weight,
        modelMapping: Object.freeze(parseObject<string>(c.modelMapping)),
        statusCodeMapping: Object.freeze(parseObject<string>(c.statusCodeMapping)),
        other: c.other,
        autoBan: c.autoBan,
        openaiOrganization: c.openaiOrganization,
        testModel: c.testModel,
        setting: Object.freeze(parseObject<unknown>(c.setting)),
        paramOverride: Object.freeze(overridableMembers(c.paramOverride ?? '')),
      }),
    );
  }

  /** A key sealed under another server secret cannot be opened: that channel gets no key (and
   *  fails upstream) instead of the whole batch of channels failing to load. */
  private reveal(state: ChannelState): string {
    try {
      return this.secretBox.open(state.key);
    } catch {
      this.logger.error(
        `channel ${state.channelId}: its key cannot be decrypted with this server secret`,
      );
      return '';
    }
  }

  private rebuildIndex(): void {
    const index = new Map<string, Map<string, RoutedChannel[]>>();
    for (const channel of this.routed.values()) {
      if (channel.status !== ChannelStatus.Enabled) continue;
      for (const group of channel.groups) {
        let byModel = index.get(group);
        if (!byModel) index.set(group, (byModel = new Map<string, RoutedChannel[]>()));
        for (const model of channel.models) {
          const list = byModel.get(model);
          if (list) list.push(channel);
          else byModel.set(model, [channel]);
        }
      }
    }
    const models = new Map<string, readonly string[]>();
    for (const [group, byModel] of index) {
      for (const list of byModel.values())
        list.sort((a, b) => b.priority - a.priority || a.id - b.id);
      models.set(group, Object.freeze([...byModel.keys()].sort()));
    }
    // Swapped whole so a reader never sees a half-built table.
    this.index = index;
    this.modelsByGroup = models;
  }
}
